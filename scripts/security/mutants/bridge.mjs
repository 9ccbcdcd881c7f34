// Removals of the threat model's sections 7 and 8: the bridge's DevTools endpoint, and a tool's wishes
// against the user's browser.

const ENDPOINT = 'packages/bridge/test/endpoint.test.ts';
const GATE = `${ENDPOINT} › the bridge endpoint's gate`;
const GATE_UNIT = `${ENDPOINT} › the gate (unit)`;
const GATE_SRC = 'packages/bridge/src/upstream/endpoint-gate.ts';
const SERVER_SRC = 'packages/bridge/src/upstream/endpoint-server.ts';
const TOKEN_REF =
  'packages/bridge/test/config.test.ts › bridge configuration from the environment › refuses a short or oddly shaped endpoint token without echoing it';
const RELAY = 'packages/bridge/test/relay/relay.test.ts';
const TOOL_ARGS = 'packages/bridge/test/args/tool-args.test.ts › the switches a tool starts the bridge with';
const POLICY_SRC = 'packages/bridge/src/args/arg-policy.ts';
const POLICY_DOCS = 'packages/bridge/test/arg-policy-docs.test.ts › the written argument policy';
const PLAN_REF =
  "packages/bridge/test/plan.test.ts › the plan: whose profile, and the tool's switches that reach it › keeps to the allowlist on a profile of the user's: %s";
const FAITHFUL = 'tests/e2e/bridge-faithful.test.ts';
const OWNERSHIP = 'tests/e2e/bridge-ownership.test.ts';
const USERS_OWN = `${OWNERSHIP} › the user's own browser`;
const ACQUIRE_SRC = 'packages/bridge/src/downstream/attach-or-launch.ts';
const RUN_SRC = 'packages/bridge/src/run-bridge.ts';
const LIST_SRC = 'packages/bridge/src/downstream/list-targets.ts';
const STOP_SRC = 'packages/bridge/src/lifecycle/stop-launched.ts';
const LEAVES_ALONE =
  'packages/bridge/test/lifecycle/stop-launched.test.ts › stopping a browser the bridge launched headless › leaves %s alone';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  // 7. The bridge's DevTools endpoint
  {
    id: 'bridge-loopback-only',
    protects: 'the endpoint listens on 127.0.0.1 only',
    edits: [
      {
        file: SERVER_SRC,
        find: "    server.listen(options.port, '127.0.0.1', () => {",
        replace: "    server.listen(options.port, '0.0.0.0', () => {",
      },
    ],
    kills: [`${GATE} › listens on loopback only`],
  },
  {
    id: 'bridge-gate-header-once',
    protects: 'a repeated Host, Origin, Sec-Fetch-Site or Authorization is refused',
    edits: [
      {
        file: GATE_SRC,
        find: '  if (repeatsGateHeader(request.rawHeaders)) return { ok: false };\n',
        replace: '',
      },
    ],
    kills: [`${GATE} › answers 401 to a request or upgrade that repeats %s`],
  },
  {
    id: 'bridge-gate-host',
    protects: "Host is exactly the endpoint's",
    edits: [
      {
        file: GATE_SRC,
        find: '  if (host !== `127.0.0.1:${expected.port}` && host !== `localhost:${expected.port}`) return { ok: false };',
        replace: '  if (host === undefined) return { ok: false };',
      },
    ],
    kills: [
      `${GATE} › answers /json/version with a bare 401 for %s`,
      `${GATE} › refuses a WebSocket upgrade with %s`,
    ],
  },
  {
    id: 'bridge-gate-no-origin',
    protects: 'no Origin header, not even null',
    edits: [
      {
        file: GATE_SRC,
        find: "  if (request.headers.origin !== undefined || request.headers['sec-fetch-site'] !== undefined)",
        replace: "  if (request.headers['sec-fetch-site'] !== undefined)",
      },
    ],
    kills: [
      `${GATE} › answers /json/version with a bare 401 for %s`,
      `${GATE} › refuses a WebSocket upgrade with %s`,
    ],
  },
  {
    id: 'bridge-gate-no-fetch-metadata',
    protects: 'no Sec-Fetch-Site header',
    edits: [
      {
        file: GATE_SRC,
        find: "  if (request.headers.origin !== undefined || request.headers['sec-fetch-site'] !== undefined)",
        replace: '  if (request.headers.origin !== undefined)',
      },
    ],
    kills: [`${GATE} › answers /json/version with a bare 401 for %s`],
  },
  {
    id: 'bridge-gate-bearer-secret',
    protects: 'an Authorization header passes only with the secret',
    edits: [
      {
        file: GATE_SRC,
        find: '  if (given !== undefined) return sameSecret(given, expected.token) ? { ok: true, host } : { ok: false };',
        replace: '  if (given !== undefined) return { ok: true, host };',
      },
    ],
    kills: [`${GATE} › answers /json/version with a bare 401 for %s`],
  },
  {
    id: 'bridge-gate-bearer-scheme',
    protects: 'the secret is taken from `Authorization: Bearer` only',
    edits: [
      {
        file: GATE_SRC,
        find: "  if (typeof value !== 'string' || !value.startsWith('Bearer ')) return undefined;\n  return value.slice('Bearer '.length);",
        replace:
          "  if (typeof value !== 'string') return undefined;\n  return value.replace(/^Bearer /, '');",
      },
    ],
    kills: [`${GATE} › answers /json/version with a bare 401 for %s`],
  },
  {
    id: 'bridge-gate-secret-path',
    protects: 'a WebSocket on /devtools/browser/… passes only with the secret in its path',
    edits: [
      {
        file: GATE_SRC,
        find: '    return sameSecret(path.slice(BROWSER_PATH_PREFIX.length), expected.token)\n      ? { ok: true, host }\n      : { ok: false };',
        replace: '    return { ok: true, host };',
      },
    ],
    kills: [`${GATE} › refuses a WebSocket upgrade with %s`],
  },
  {
    id: 'bridge-gate-secret-path-websocket-only',
    protects: 'a plain HTTP request never passes by the secret path',
    edits: [
      {
        file: GATE_SRC,
        find: "  if (kind === 'websocket' && path.startsWith(BROWSER_PATH_PREFIX)) {",
        replace: '  if (path.startsWith(BROWSER_PATH_PREFIX)) {',
      },
    ],
    kills: [`${GATE_UNIT} › never takes a secret from the path of a plain HTTP request`],
  },
  {
    id: 'bridge-version-behind-gate',
    protects: '/json/version reveals the WebSocket URL only to a caller that passed the gate',
    edits: [
      {
        file: SERVER_SRC,
        find: '    if (!verdict.ok) {',
        replace: "    if (!verdict.ok && request.url !== '/json/version') {",
      },
    ],
    kills: [
      `${GATE} › reveals the browser WebSocket URL only to a caller with the secret`,
      `${GATE} › answers /json/version with a bare 401 for %s`,
    ],
  },
  {
    id: 'bridge-secret-any-length',
    protects: 'secrets of any length are compared without throwing',
    edits: [
      {
        file: GATE_SRC,
        find: '  return timingSafeEqual(padded, b) && a.length === b.length;',
        replace: '  return timingSafeEqual(a, b);',
      },
    ],
    kills: [`${GATE_UNIT} › compares secrets of any length without throwing`],
  },
  {
    id: 'bridge-secret-whole-length',
    protects: 'a secret with more characters than the token is not the token',
    edits: [
      {
        file: GATE_SRC,
        find: '  return timingSafeEqual(padded, b) && a.length === b.length;',
        replace: '  return timingSafeEqual(padded, b);',
      },
    ],
    kills: [`${GATE_UNIT} › compares secrets of any length without throwing`],
  },
  {
    id: 'bridge-secret-not-logged',
    protects: 'a refused WebSocket path (which may hold the secret) is never logged',
    edits: [
      {
        file: SERVER_SRC,
        find: '{ path: verdict.ok ? path : undefined }',
        replace: '{ path }',
      },
    ],
    kills: [`${GATE} › never writes the secret to its log`],
  },
  {
    id: 'bridge-token-min-length',
    protects: 'BPROXY_BRIDGE_TOKEN has at least 32 characters',
    edits: [{ file: 'packages/bridge/src/config.ts', find: '{32,256}$/', replace: '{1,256}$/' }],
    kills: [TOKEN_REF],
  },
  {
    id: 'bridge-token-max-length',
    protects: 'BPROXY_BRIDGE_TOKEN has at most 256 characters',
    edits: [{ file: 'packages/bridge/src/config.ts', find: '{32,256}$/', replace: '{32,}$/' }],
    kills: [TOKEN_REF],
  },
  {
    id: 'bridge-token-url-safe',
    protects: 'BPROXY_BRIDGE_TOKEN is URL-safe characters only',
    edits: [
      { file: 'packages/bridge/src/config.ts', find: '[A-Za-z0-9_-]{32,256}', replace: '[\\s\\S]{32,256}' },
    ],
    kills: [TOKEN_REF],
  },
  {
    id: 'bridge-token-not-echoed',
    protects: 'a refused BPROXY_BRIDGE_TOKEN is not echoed',
    edits: [
      {
        file: 'packages/bridge/src/config.ts',
        find: "      'BPROXY_BRIDGE_TOKEN must be 32 to 256 characters of A-Z, a-z, 0-9, _ and - (its value is not shown)',",
        replace:
          '      `BPROXY_BRIDGE_TOKEN must be 32 to 256 characters of A-Z, a-z, 0-9, _ and -, got "${raw}"`,',
      },
    ],
    kills: [TOKEN_REF],
  },
  {
    id: 'bridge-watchdog-argv-no-secret',
    protects: "the watchdog's command line carries no secret",
    build: true,
    edits: [
      {
        file: 'packages/bridge/src/lifecycle/watchdog.ts',
        find: '  const child = spawn(process.execPath, [script, JSON.stringify(visible)], {',
        replace:
          '  const child = spawn(process.execPath, [script, JSON.stringify({ ...visible, config: plan.config })], {',
      },
    ],
    kills: [
      `${OWNERSHIP} › a browser the bridge launched › is stopped by the watchdog when the bridge is SIGKILLed in pipe + headless`,
    ],
  },
  {
    id: 'bridge-invalid-request-answered',
    protects: 'a command without a safe-integer id gets an Invalid Request error',
    edits: [
      {
        file: 'packages/bridge/src/relay/relay.ts',
        find: '      else {\n        this.toTool(\n          invalidRequestResponse(',
        replace:
          "      else if (text === '\\u0000') {\n        this.toTool(\n          invalidRequestResponse(",
      },
    ],
    kills: [`${RELAY} › relay: ids › answers %s with an Invalid Request error and relays nothing`],
  },
  {
    id: 'bridge-unsafe-id-not-relayed',
    protects: 'a command whose id is not a safe integer never reaches the browser',
    edits: [
      {
        file: 'packages/bridge/src/relay/cdp-frames.ts',
        find: "typeof value.id === 'number' && Number.isSafeInteger(value.id) ? value.id : undefined;",
        replace: "typeof value.id === 'number' && Number.isFinite(value.id) ? value.id : undefined;",
      },
    ],
    kills: [`${RELAY} › relay: ids › answers %s with an Invalid Request error and relays nothing`],
  },
  // What these prove is the way a caller with the secret passes the gate, not a refusal: each removal
  // takes that way away.
  {
    id: 'bridge-gate-path-route',
    protects: 'a tool with the secret path opens the browser WebSocket',
    edits: [
      {
        file: GATE_SRC,
        find: "  if (kind === 'websocket' && path.startsWith(BROWSER_PATH_PREFIX)) {",
        replace: "  if (kind === 'websocket' && path.startsWith(BROWSER_PATH_PREFIX) && given === '') {",
      },
    ],
    kills: [
      `${GATE} › opens the browser WebSocket on the secret path or with the secret header, and relays on it`,
    ],
  },
  {
    id: 'bridge-gate-header-route',
    protects:
      'a client passes the gate with the secret in its Authorization header, as @playwright/mcp sends it',
    build: true,
    edits: [
      {
        file: GATE_SRC,
        find: '  const given = bearer(request.headers);',
        replace: '  const given = undefined;',
      },
    ],
    kills: [
      'tests/e2e/bridge-tools.test.ts › @playwright/mcp 0.0.83 pointed at the bridge › passes the gate with the secret in an Authorization header, as it sends it, and is refused without',
    ],
  },
  {
    id: 'bridge-stderr-secret-path',
    protects: 'a real tool (Puppeteer) passes the gate by the secret path the bridge prints on stderr',
    build: true,
    edits: [
      {
        file: RUN_SRC,
        find: '  io.stderr(`\\nDevTools listening on ${served.endpoint.wsUrl}\\n`);',
        replace:
          '  io.stderr(`\\nDevTools listening on ws://127.0.0.1:${served.endpoint.port}/devtools/browser\\n`);',
      },
    ],
    kills: [
      'tests/e2e/bridge-libraries.test.ts › Puppeteer (puppeteer-core) launching the bridge › drives a page over %s and closes its browser',
    ],
  },

  {
    id: 'bridge-list-no-websocket-url',
    protects: "/json/list carries no WebSocket URL to the real browser's port",
    edits: [
      {
        file: LIST_SRC,
        find: "      description: '',\n    }));",
        replace:
          "      description: '',\n      webSocketDebuggerUrl: `ws://${new URL(wsUrl).host}/devtools/page/${String(info.targetId)}`,\n    }));",
      },
    ],
    kills: [
      "packages/bridge/test/downstream/list-targets.test.ts › /json/list of the bridge's endpoint › lists the browser's targets on %s without a WebSocket URL or the browser's port",
    ],
  },

  // 8. A tool's wishes against the user's browser
  {
    id: 'bridge-user-profile-allowlist',
    protects: "on a profile of the user's only the allowlist passes",
    edits: [
      {
        file: POLICY_SRC,
        find: "  return owner === 'tool' || FORWARDED_SWITCHES.includes(name);",
        replace: '  return true;',
      },
    ],
    kills: [`${TOOL_ARGS} › drops every switch that would change the user's real browser`, PLAN_REF],
  },
  {
    id: 'bridge-user-profile-owner',
    protects: "BPROXY_BRIDGE_USER_DATA_DIR and the bridge's default profile are the user's",
    build: true,
    edits: [
      {
        file: 'packages/bridge/src/plan.ts',
        find: "  const profileOwner: ProfileOwner = toolsProfile === undefined ? 'user' : 'tool';",
        replace: "  const profileOwner: ProfileOwner = 'tool';",
      },
    ],
    kills: [
      PLAN_REF,
      `${FAITHFUL} › the tool's switches: honoured on its own profile, refused on the user's › refuses them on a profile of the user's (BPROXY_BRIDGE_USER_DATA_DIR)`,
    ],
  },
  {
    id: 'bridge-wsl-profile-users',
    protects: "Windows Chrome's profile is the user's, whatever --user-data-dir the tool passed",
    build: true,
    edits: [
      {
        file: 'packages/bridge/src/plan.ts',
        find: "config.userDataDir === undefined && choice.host.kind === 'local' && args.userDataDir !== undefined",
        replace: 'config.userDataDir === undefined && args.userDataDir !== undefined',
      },
    ],
    kills: [
      'tests/e2e/bridge-wsl.test.ts › Windows Chrome from WSL through powershell.exe › launches with a Windows profile and filtered switches, lets a second bridge attach, stops it on exit',
    ],
  },
  {
    id: 'bridge-never-forwarded',
    protects: "the switches that open the browser's own DevTools are refused even on the tool's profile",
    edits: [
      {
        file: POLICY_SRC,
        find: '  if (CONSUMED_SWITCHES.includes(name) || NEVER_FORWARDED.includes(name)) return false;',
        replace: '  if (CONSUMED_SWITCHES.includes(name)) return false;',
      },
    ],
    kills: [
      `${TOOL_ARGS} › passes every switch Chrome would take to the tool's own profile, but none that opens the browser's DevTools`,
    ],
  },
  {
    id: 'bridge-never-forwarded-written',
    protects: "the README names every switch refused on the tool's own profile",
    edits: [
      {
        file: POLICY_SRC,
        find: "export const NEVER_FORWARDED: readonly string[] = ['--remote-allow-origins', '--remote-debugging-io-pipes'];",
        replace: "export const NEVER_FORWARDED: readonly string[] = ['--remote-allow-origins'];",
      },
    ],
    kills: [
      `${POLICY_DOCS} › is the README's table of profiles, and names the switches refused even on the tool's own`,
    ],
  },
  {
    id: 'bridge-allowlist-written',
    protects: "the README's allowlist is the one applied",
    edits: [
      {
        file: POLICY_SRC,
        find: "  '--proxy-bypass-list',\n];",
        replace: "  '--proxy-bypass-list',\n  '--disable-web-security',\n];",
      },
    ],
    kills: [`${POLICY_DOCS} › is the README's table of switches that may pass, row for row`],
  },
  {
    id: 'bridge-attached-close-answered',
    protects: 'Browser.close is never forwarded to a browser the bridge attached to',
    edits: [
      {
        file: 'packages/bridge/src/relay/relay.ts',
        find: "    if (browser.ownership === 'launched') {",
        replace: '    if (browser.ownership !== undefined) {',
      },
    ],
    kills: [`${RELAY} › relay: Browser.close › never forwards it to a browser the bridge attached to`],
  },
  {
    id: 'bridge-attached-not-stopped',
    protects: 'a browser the bridge attached to is not stopped when the bridge ends',
    build: true,
    edits: [
      {
        file: RUN_SRC,
        find: "    browser?.ownership === 'launched' &&\n    browser.headless &&",
        replace: '    browser?.headless === true &&',
      },
    ],
    kills: [
      `${USERS_OWN} › is attached to, survives Browser.close and a SIGKILLed bridge, and gets no watchdog`,
    ],
  },
  {
    id: 'bridge-attached-no-watchdog',
    protects: 'a browser the bridge attached to gets no watchdog',
    build: true,
    edits: [
      {
        file: ACQUIRE_SRC,
        find: '  observer?.attached(running.pid);',
        replace: '  observer?.launching();\n  observer?.spawned(running.pid);',
      },
    ],
    kills: [
      `${USERS_OWN} › is attached to, survives Browser.close and a SIGKILLed bridge, and gets no watchdog`,
    ],
  },
  {
    id: 'bridge-close-grace',
    protects: 'after a forwarded Browser.close a launched browser may exit by itself, writing its profile',
    build: true,
    edits: [{ file: RUN_SRC, find: 'const CLOSE_GRACE_MS = 10_000;', replace: 'const CLOSE_GRACE_MS = 0;' }],
    kills: [
      `${FAITHFUL} › Browser.close through the bridge, as Chrome does it › lets the browser write its profile: a persistent cookie set before close() is there after a relaunch`,
    ],
  },
  {
    id: 'bridge-watchdog-ws-mode',
    protects: 'the watchdog covers a launched headless browser in ws mode too',
    build: true,
    edits: [
      {
        file: RUN_SRC,
        find: '    !plan.headless ||\n    plan.host === undefined ||',
        replace: "    !plan.headless ||\n    plan.transportMode === 'ws' ||\n    plan.host === undefined ||",
      },
    ],
    kills: [`${FAITHFUL} › a SIGKILLed bridge leaves no browser › in ws mode, once connected`],
  },
  {
    id: 'bridge-watchdog-before-launch',
    protects: 'the watchdog is told before the browser process starts',
    build: true,
    edits: [
      {
        file: ACQUIRE_SRC,
        find: '  observer?.launching();\n  const launched = await host.launch(',
        replace: '  const launched = await host.launch(',
      },
      { file: ACQUIRE_SRC, find: '  if (launched.pid > 0) observer?.spawned(launched.pid);\n', replace: '' },
      {
        file: ACQUIRE_SRC,
        find: '  const port = Number(new URL(wsUrl).port);',
        replace:
          '  observer?.launching();\n  observer?.spawned(launched.pid);\n  const port = Number(new URL(wsUrl).port);',
      },
    ],
    kills: [
      `${FAITHFUL} › a SIGKILLed bridge leaves no browser › in the middle of the launch, before the browser said where it listens`,
    ],
  },
  {
    id: 'bridge-stop-checks-headless',
    protects: 'a launched browser is stopped only if its pid still runs --headless',
    edits: [
      {
        file: STOP_SRC,
        find: "  if (!isHeadlessCommandLine(proc.args)) return 'its command line has no --headless';\n",
        replace: '',
      },
    ],
    kills: [LEAVES_ALONE],
  },
  {
    id: 'bridge-stop-checks-profile',
    protects: 'a launched browser is stopped only if its pid still runs that profile',
    edits: [
      {
        file: STOP_SRC,
        find: "  if (profile === undefined || !host.sameProfile(profile, identity.userDataDir))\n    return 'it runs another profile';\n",
        replace: '',
      },
    ],
    kills: [LEAVES_ALONE],
  },
  {
    id: 'bridge-stop-checks-binary',
    protects: 'a launched browser is stopped only if its pid still runs that binary',
    edits: [
      {
        file: STOP_SRC,
        find: "  if (!sameExecutable(host, proc.executablePath, identity.executablePath))\n    return 'it runs another executable';\n",
        replace: '',
      },
    ],
    kills: [LEAVES_ALONE],
  },
  {
    id: 'bridge-powershell-json-literal',
    protects: 'PowerShell gets its parameters as one JSON literal a quote cannot end',
    edits: [
      {
        file: 'packages/bridge/src/downstream/powershell.ts',
        find: "  const literal = JSON.stringify(params).replace(/'/g, \"''\");",
        replace: '  const literal = JSON.stringify(params);',
      },
    ],
    kills: [
      'packages/bridge/test/downstream/powershell.test.ts › the PowerShell scripts the bridge runs on Windows › carry parameters as one JSON literal, so a quote in a path cannot become code',
    ],
  },
  {
    id: 'bridge-default-profile-refused',
    protects: "Chrome's default profile is refused",
    build: true,
    edits: [
      {
        file: ACQUIRE_SRC,
        find: '  if (defaults.some((d) => target.host.sameProfile(d, target.userDataDir))) {',
        replace: '  if (defaults.length < 0) {',
      },
    ],
    kills: [
      `${USERS_OWN} › refuses Chrome's default profile, where Chrome 136+ ignores remote debugging, and says what to do`,
    ],
  },
  {
    id: 'bridge-secret-constant-time',
    protects: 'the endpoint compares its secret in constant time',
    edits: [
      {
        file: 'packages/bridge/src/upstream/endpoint-gate.ts',
        find: '  return timingSafeEqual(padded, b) && a.length === b.length;',
        replace: '  return given === expected;',
      },
    ],
    kills: [
      'packages/bridge/test/same-secret.test.ts › the endpoint secret comparison › compares %s through timingSafeEqual on buffers the length of the secret',
    ],
  },
  {
    id: 'bridge-secret-not-logged-in-paths',
    protects: 'the secret, sent in a path of its own, is never written to the log',
    edits: [
      {
        file: SERVER_SRC,
        find: "path: request.url?.split('?')[0]?.split(options.token).join('[secret]') },",
        replace: "path: request.url?.split('?')[0] },",
      },
    ],
    kills: [`${GATE} › never writes the secret to its log`],
  },
];
