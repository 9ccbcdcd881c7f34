// Removals of the threat model's sections 1-3: the daemon's gate, DNS rebinding, other local users.

const SEC = 'packages/daemon/test/security.test.ts';
const PAIR = 'packages/daemon/test/pairing/pairing.test.ts';
const AUTH = 'packages/daemon/src/http/auth.ts';
const SECURE = 'packages/client/src/lifecycle/secure-file.ts';
const START = 'packages/daemon/src/lifecycle/start-daemon.ts';
const IDS = 'packages/client/src/lifecycle/extension-ids.ts';
const HOST_CLI = 'packages/cli/test/host/host-commands.test.ts';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  // 4. Which extension the daemon and the native host accept: one setting, BPROXY_HOME/extensions.json
  {
    id: 'trusted-ids-gate-set',
    protects: 'the gate accepts every trusted extension id, not only the first',
    edits: [
      {
        file: AUTH,
        find: '  return ids.some((id) => origin === `chrome-extension://${id}`);',
        replace: '  return ids.slice(0, 1).some((id) => origin === `chrome-extension://${id}`);',
      },
    ],
    kills: [
      'packages/daemon/test/http/gate.test.ts › gate (unit) › accepts the Origin of every trusted extension id and refuses any other, even a near one',
      `${HOST_CLI} › trusted extension ids › a daemon started by the CLI accepts the extension id added with --extension-id, and still refuses any other`,
    ],
  },
  {
    id: 'trusted-ids-daemon-follows-file',
    protects: 'a running daemon reads extensions.json again when it changes',
    edits: [{ file: START, find: '      extensionIds: liveIds,', replace: '      extensionIds,' }],
    kills: [
      'packages/daemon/test/lifecycle/start-daemon.test.ts › startDaemon › a running daemon follows extensions.json: an id added or removed counts at the next request, and a file made unsafe trusts no extension until fixed',
      `${HOST_CLI} › trusted extension ids › a running daemon accepts an id added with host install --extension-id at its next request, and no extension at all while extensions.json is open to others`,
    ],
  },
  {
    id: 'trusted-ids-live-fail-closed',
    protects: 'an extensions.json made unsafe under a running daemon trusts no extension',
    edits: [{ file: IDS, find: '      ids = [];\n', replace: '' }],
    kills: [
      'packages/daemon/test/lifecycle/start-daemon.test.ts › startDaemon › a running daemon follows extensions.json: an id added or removed counts at the next request, and a file made unsafe trusts no extension until fixed',
      `${HOST_CLI} › trusted extension ids › a running daemon accepts an id added with host install --extension-id at its next request, and no extension at all while extensions.json is open to others`,
    ],
  },
  {
    id: 'trusted-ids-daemon-reads-setting',
    protects: 'the daemon reads the trusted ids from extensions.json whoever starts it',
    edits: [
      {
        file: START,
        find: '    const extensionIds = trustedExtensionIds(paths);',
        replace: "    const extensionIds = ['oajmbecmcoogehkeimcopdfcilgnicbm'];",
      },
    ],
    build: true,
    kills: [
      'tests/e2e/trusted-extension-ids.test.ts › a daemon started by bproxy mcp › accepts the extension ids of extensions.json and refuses any other',
      'packages/daemon/test/lifecycle/start-daemon.test.ts › startDaemon › hands the server every trusted extension id: the built-in ones and those of extensions.json',
      `${HOST_CLI} › trusted extension ids › a daemon started by the CLI accepts the extension id added with --extension-id, and still refuses any other`,
    ],
  },
  {
    id: 'trusted-ids-file-checked',
    protects: 'extensions.json is read with the checks of every state file, and its format is enforced',
    edits: [
      {
        file: IDS,
        find: '  const file = readStateJson(paths.extensions, ExtensionsFileSchema);',
        replace:
          "  const text = existsSync(paths.extensions) ? readFileSync(paths.extensions, 'utf8') : null;\n  const checked = text === null ? null : ExtensionsFileSchema.safeParse(JSON.parse(text));\n  const file = checked === null ? null : checked.success ? checked.data : 'invalid';",
      },
      {
        file: IDS,
        find: "import { lstatSync, mkdirSync } from 'node:fs';",
        replace: "import { existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';",
      },
    ],
    kills: [
      'packages/client/test/lifecycle/extension-ids.test.ts › the trusted extension ids (BPROXY_HOME/extensions.json) › refuses a file open to others, a symlink, and content outside the format (fail closed)',
      'packages/daemon/test/lifecycle/start-daemon.test.ts › startDaemon › refuses to start when extensions.json is open to others, and undoes what it created',
      'packages/native-host/test/run-host.test.ts › the caller-origin gate › refuses every caller, ours included, when extensions.json is open to others',
      'packages/native-host/test/registration.test.ts › registration on %s › refuses to install when extensions.json is open to others, writing nothing',
      `${HOST_CLI} › trusted extension ids › an extensions.json open to others stops host install with UNSAFE_STATE_FILE and the daemon from starting`,
    ],
  },
  {
    id: 'trusted-ids-env-refused',
    protects: 'BPROXY_EXTENSION_ID is refused, not silently ignored',
    edits: [
      {
        file: 'packages/client/src/lifecycle/config.ts',
        find: '  refuseExtensionIdVariable(env.BPROXY_EXTENSION_ID);\n',
        replace: '',
      },
    ],
    kills: [
      'packages/client/test/lifecycle/config.test.ts › daemon configuration from the environment › refuses BPROXY_EXTENSION_ID, which is no longer read, naming the command that replaces it',
    ],
  },
  // 1. A web page the user visits
  {
    id: 'gate-origin-exact',
    protects: 'Origin absent or exactly our extension',
    edits: [
      {
        file: AUTH,
        find: 'if (origin !== undefined && !isTrustedExtensionOrigin(trustedIdsOf(config), origin)) return false;',
        replace: '',
      },
    ],
    kills: [
      `${SEC} › gate: Origin and fetch metadata › accepts the extension origin and refuses every other`,
      `${SEC} › WS upgrade › refuses %s with 401`,
      `${PAIR} › POST /pair/claim › is not burnable by requests the gate refuses`,
      `${PAIR} › POST /pair/claim › is not burnable by requests the gate refuses, whatever their body`,
    ],
  },
  {
    id: 'gate-fetch-metadata',
    protects: 'Sec-Fetch-Site absent, none or same-origin',
    edits: [
      {
        file: AUTH,
        find: "if (site !== undefined && site !== 'none' && site !== 'same-origin') return false;",
        replace: '',
      },
    ],
    kills: [
      `${SEC} › gate: Origin and fetch metadata › accepts Sec-Fetch-Site none and same-origin, refuses same-site and cross-site`,
    ],
  },
  {
    id: 'gate-json-only',
    protects: 'only application/json bodies are parsed',
    edits: [
      {
        file: 'packages/daemon/src/http/server.ts',
        find: "app.removeContentTypeParser('text/plain');",
        replace: '',
      },
    ],
    kills: [`${SEC} › body abuse › refuses non-JSON content types with 415`],
  },
  {
    id: 'gate-csrf-origin-and-site',
    protects: 'a simple CSRF post is stopped by Origin and fetch metadata before its body',
    edits: [
      {
        file: AUTH,
        find: 'if (origin !== undefined && !isTrustedExtensionOrigin(trustedIdsOf(config), origin)) return false;',
        replace: '',
      },
      {
        file: AUTH,
        find: "if (site !== undefined && site !== 'none' && site !== 'same-origin') return false;",
        replace: '',
      },
      {
        file: AUTH,
        find: "    if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) return false;\n    return secretEquals(auth.slice('Bearer '.length), config.daemonToken);",
        replace: '    return true;',
      },
    ],
    kills: [
      `${SEC} › gate: Origin and fetch metadata › refuses a simple-content-type CSRF post from a page even with a leaked-looking body`,
    ],
  },
  {
    id: 'gate-bearer',
    protects: 'the bearer token on POST /',
    edits: [
      {
        file: AUTH,
        find: "    if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) return false;\n    return secretEquals(auth.slice('Bearer '.length), config.daemonToken);",
        replace: '    return true;',
      },
    ],
    kills: [
      `${SEC} › gate: bearer › refuses a %s bearer`,
      `${SEC} › gate: bearer › answers 401 before looking at a malformed body`,
      `${PAIR} › pairing.issue › is refused without the daemon token, like every command`,
    ],
  },
  {
    id: 'gate-ws-token',
    protects: 'the extension token on the /ws upgrade, encoded as the seed prescribes',
    edits: [
      {
        file: AUTH,
        find: '    if (!parsed || active === null) return false;\n    return secretEquals(parsed.token, active);',
        replace: '    return active !== null;',
      },
    ],
    kills: [`${SEC} › WS upgrade › refuses %s with 401`],
  },
  // 2. DNS rebinding
  {
    id: 'gate-host-exact',
    protects: 'Host exactly 127.0.0.1:PORT or localhost:PORT',
    edits: [
      {
        file: AUTH,
        find: 'if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return false;',
        replace: '',
      },
    ],
    kills: [
      `${SEC} › gate: Host › refuses %s`,
      `${SEC} › gate: Host › refuses a missing Host`,
      `${SEC} › WS upgrade › refuses a rebinding Host on the upgrade`,
    ],
  },
  // 3. Other local users
  {
    id: 'secure-file-symlink',
    protects: 'a state file that is a symbolic link is refused',
    edits: [{ file: SECURE, find: '  if (stats.isSymbolicLink()) {', replace: '  if (false) {' }],
    kills: [
      'packages/client/test/lifecycle/secure-file.test.ts › state-file reads fail closed › refuses a symbolic link even to a safe file',
      'packages/agent/test/config/agent-config.test.ts › agent key file › refuses a key file that is a symbolic link, even to a safe file',
    ],
  },
  {
    id: 'secure-file-owner',
    protects: 'a state file owned by another user is refused',
    edits: [{ file: SECURE, find: '  if (uid !== null && stats.uid !== uid) {', replace: '  if (false) {' }],
    kills: [
      'packages/client/test/lifecycle/secure-file.test.ts › state-file reads fail closed › refuses a file owned by another user',
    ],
  },
  {
    id: 'secure-file-regular',
    protects: 'a state file must be a regular file',
    edits: [{ file: SECURE, find: '  if (!stats.isFile()) {', replace: '  if (false) {' }],
    kills: [
      'packages/client/test/lifecycle/secure-file.test.ts › state-file reads fail closed › refuses a directory where a file should be',
    ],
  },
  {
    id: 'secure-file-mode',
    protects: 'a state file readable by group or others is refused',
    edits: [
      {
        file: SECURE,
        find: '  if (uid !== null && (stats.mode & 0o077) !== 0) {',
        replace: '  if (false) {',
      },
    ],
    kills: [
      'packages/cli/test/cli-daemon.test.ts › fails closed when the token file became readable by others',
      'packages/client/test/daemon-client.test.ts › daemon client › says NO_DAEMON when none runs and UNSAFE_STATE_FILE for a token others can read, with the catalogue hints',
      'packages/cli/test/service-refusals.test.ts › service start refuses unsafe state and reports why',
      'packages/agent/test/config/agent-config.test.ts › agent key file › refuses a key file readable by others, without repeating the key',
      'packages/cli/test/agent-config.test.ts › bproxy agent config › refuses a key file others can read, and exits 1 without printing the key',
      'packages/agent/test/tools/notes.test.ts › notes › refuses a notes file other users can write or read',
    ],
  },
  {
    id: 'secure-write-mode',
    protects: 'state files are written with mode 0600 whatever the umask',
    edits: [{ file: SECURE, find: '    fchmodSync(fd, 0o600);', replace: '    fchmodSync(fd, 0o644);' }],
    kills: [
      'packages/client/test/lifecycle/secure-file.test.ts › atomic state-file writes › creates the file with mode 0600 whatever the umask, and leaves no temporary file',
      'packages/cli/test/service-lifecycle.test.ts › writes every state file with mode 0600 in a 0700 home, pairing.json with the printed code',
      'packages/agent/test/config/agent-config.test.ts › agent key file › stores keys in a 0600 file in a 0700 folder, one per provider',
      'packages/cli/test/agent-config.test.ts › bproxy agent config › reads the key from stdin into a 0600 file, and shows it only as set',
    ],
  },
  {
    id: 'secure-write-no-follow',
    protects: 'a write replaces a symlink, never the file it points to',
    edits: [
      {
        file: SECURE,
        find: '    renameSync(temp, path);\n    renamed = true;',
        replace:
          "    closeSync(openSync(path, 'a'));\n    const out = openSync(path, constants.O_WRONLY | constants.O_TRUNC);\n    writeSync(out, bytes);\n    closeSync(out);\n    renamed = true;",
      },
    ],
    kills: [
      'packages/client/test/lifecycle/secure-file.test.ts › atomic state-file writes › replaces a symlink itself, never the file it points to',
    ],
  },
  {
    id: 'pairing-throttle',
    protects: 'a global throttle after 5 failed claims in 60 s',
    edits: [
      {
        file: 'packages/daemon/src/pairing/pairing-rate-limit.ts',
        find: '    return this.failures.length >= this.maxFailures;',
        replace: '    return false;',
      },
    ],
    kills: [
      `${PAIR} › POST /pair/claim › throttles after 5 failures in 60 s, refusing even the right code`,
      `${PAIR} › POST /pair/claim › counts malformed, oversized and wrong-content-type bodies as failed claims, logged`,
      'packages/daemon/test/faults-clock-log.test.ts › wall-clock jumps › keeps the pairing throttle closed when the wall clock steps back',
    ],
  },
  {
    id: 'pairing-single-use',
    protects: 'a code claims once, even under concurrent claims',
    edits: [
      {
        file: 'packages/daemon/src/pairing/pairing.ts',
        find: "    if (live.consumed) return { ok: false, code: 'PAIRING_CODE_CONSUMED' };",
        replace: '',
      },
    ],
    kills: [
      `${PAIR} › POST /pair/claim › lets exactly one of many concurrent claims of the same code succeed`,
    ],
  },
  {
    id: 'pairing-expiry',
    protects: 'a code expires after 5 minutes on the monotonic clock',
    edits: [
      {
        file: 'packages/daemon/src/pairing/pairing.ts',
        find: "    if (this.clock.monotonic() >= live.expiresAtMono) return { ok: false, code: 'PAIRING_CODE_EXPIRED' };",
        replace: '',
      },
    ],
    kills: [`${PAIR} › PairingCodes › expires a code after 5 minutes on the monotonic clock`],
  },
  {
    id: 'gate-constant-time',
    protects: 'secrets compared in constant time, length hidden',
    edits: [
      {
        file: AUTH,
        find: "  const a = createHash('sha256').update(given).digest();\n  const b = createHash('sha256').update(expected).digest();\n  return timingSafeEqual(a, b);",
        replace: '  return given === expected;',
      },
    ],
    kills: [
      'packages/daemon/test/http/secret-equals.test.ts › secretEquals › compares %s through timingSafeEqual on equal-length digests',
    ],
  },
  {
    id: 'gate-origin-required',
    protects: 'browser-facing routes require our Origin',
    edits: [
      {
        file: AUTH,
        find: "  if (origin === undefined && (secret === 'ws' || secret === 'pairing')) return false;",
        replace: '',
      },
    ],
    kills: [`${PAIR} › POST /pair/claim › requires the extension Origin`],
  },
  {
    id: 'payload-log-typed',
    protects: 'typed values redacted in debug payloads',
    edits: [
      {
        file: 'packages/daemon/src/logs/payload-log.ts',
        find: '    params: redact(hideTyped(request.action, request.params)),',
        replace: '    params: redact(request.params),',
      },
    ],
    kills: [
      'packages/daemon/test/observability.test.ts › payload logging › logs request and response payloads at debug level, with typed values redacted',
    ],
  },
  {
    id: 'payload-log-level',
    protects: 'no payload logged below the debug level',
    edits: [
      {
        file: 'packages/daemon/src/logs/payload-log.ts',
        find: "  if (!logger.isLevelEnabled('debug')) return;\n  if ('body' in request) {\n    logger.debug(",
        replace: "  if ('body' in request) {\n    logger.info(",
      },
      {
        file: 'packages/daemon/src/logs/payload-log.ts',
        find: "  logger.debug({\n    id,\n    event: 'request_payload',",
        replace: "  logger.info({\n    id,\n    event: 'request_payload',",
      },
    ],
    kills: [
      'packages/daemon/test/observability.test.ts › payload logging › logs no payload at the info level',
    ],
  },
  {
    id: 'payload-log-issued-code',
    protects: 'the code pairing.issue hands out is never logged',
    edits: [
      {
        file: 'packages/daemon/src/logs/payload-log.ts',
        find: "const SECRET_RESULTS: Readonly<Record<string, readonly string[]>> = { 'pairing.issue': ['code'] };",
        replace: 'const SECRET_RESULTS: Readonly<Record<string, readonly string[]>> = {};',
      },
    ],
    kills: [
      `${PAIR} › pairing.issue › hands the bearer holder a fresh code that claims like a printed one and retires the previous`,
    ],
  },
  {
    id: 'log-bearer',
    protects: 'bearer headers never reach the log',
    edits: [
      {
        file: 'packages/daemon/src/http/gate.ts',
        find: "    if (!allowed) logger.warn({ event: 'gate_rejected', method: req.method, path: req.url.split('?')[0] });",
        replace:
          "    if (!allowed) logger.warn({ event: 'gate_rejected', method: req.method, path: req.url.split('?')[0], bearer: req.headers.authorization });",
      },
    ],
    kills: [
      `${SEC} › secrets stay out of logs › never logs the daemon token, the extension token or a bearer header`,
    ],
  },
  {
    id: 'log-pairing-code',
    protects: 'pairing codes and tokens never reach the log',
    edits: [
      {
        file: 'packages/daemon/src/http/pair.ts',
        find: "      deps.logger.info({ event: 'pair_claim_ok' });",
        replace: "      deps.logger.info({ event: 'pair_claim_ok', claimed: parsed.data.code });",
      },
    ],
    kills: [`${PAIR} › POST /pair/claim › never logs the pairing code or the token`],
  },
  {
    id: 'farm-url-redacted',
    protects: "a farm URL's query and password never shown",
    edits: [
      {
        file: 'packages/cdp/src/cdp/ws-transport.ts',
        find: 'export function redact(url: string): string {\n  try {',
        replace: 'export function redact(url: string): string {\n  if (url !== "") return url;\n  try {',
      },
    ],
    kills: [
      'packages/cdp/test/ws-refusals.test.ts › a remote endpoint that refuses or queues › says HTTP %i and what it means, without the token',
      'packages/cdp/test/ws-refusals.test.ts › a remote endpoint that refuses or queues › gives up at the timeout when the upgrade is queued, and says so',
    ],
  },
  // 4. Other browser extensions
  {
    id: 'ws-echo-only-subprotocol',
    protects: 'the daemon echoes only bproxy.v1, never the token entry',
    edits: [
      {
        file: 'packages/daemon/src/http/server.ts',
        find: '      handleProtocols: (protocols: Set<string>) => (protocols.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),',
        replace: '      handleProtocols: (protocols: Set<string>) => [...protocols].pop() ?? false,',
      },
    ],
    kills: [`${SEC} › WS upgrade › echoes only bproxy.v1 for the right token`],
  },
  {
    id: 'pairing-rotation-closes-old',
    protects: 'a new pairing disconnects connections made with the old token',
    edits: [{ file: 'packages/daemon/src/http/pair.ts', find: '      deps.onTokenRotated();', replace: '' }],
    kills: [
      `${PAIR} › POST /pair/claim › closes connections made with the previous token when a new one is claimed`,
    ],
  },
  {
    id: 'extension-bootstrap-loopback',
    protects: 'the extension accepts a daemon on loopback only',
    edits: [
      {
        file: 'packages/extension/src/background/daemon/pairing-state.ts',
        find: "    (url.hostname === '127.0.0.1' || url.hostname === 'localhost') &&",
        replace: '',
      },
    ],
    kills: [
      'packages/extension/test/background/daemon/pairing-state.test.ts › refuses a bootstrap that points off this computer or speaks another protocol',
    ],
  },
  {
    id: 'cdp-url-not-in-argv',
    protects:
      'service start --cdp-url hands the farm URL (and its token) to the daemon in its environment, never its argv',
    edits: [
      {
        file: 'packages/client/src/service/start.ts',
        find: '  const { script: _script, env: _env, implicit, cdpUrl, ...browser } = options;',
        replace:
          '  const { script: _script, env: _env, implicit, ...browser } = options;\n  const cdpUrl: string | null = null;',
      },
    ],
    kills: [
      "packages/cli/test/service-lifecycle.test.ts › bproxy service start/status/stop › moves --cdp-url into the daemon's environment, out of its argv",
    ],
  },
  {
    id: 'extension-not-externally-connectable',
    protects:
      'no web page or other extension may message ours: the manifest declares no externally_connectable',
    edits: [
      {
        file: 'packages/extension/manifest.json',
        find: '  "host_permissions": ["http://*/*", "https://*/*"],',
        replace:
          '  "externally_connectable": { "ids": ["*"], "matches": ["https://*/*"] },\n  "host_permissions": ["http://*/*", "https://*/*"],',
      },
    ],
    kills: [
      'packages/extension/test/manifest.test.ts › manifest › reaches http and https pages only: no <all_urls>, no file://, no content scripts, nothing exposed',
    ],
  },
  {
    id: 'extension-key',
    protects: "the extension's id, which the daemon's Origin check compares, is fixed by its manifest key",
    edits: [{ file: 'packages/extension/manifest.json', find: '"key": "', replace: '"key": "A' }],
    kills: [
      'packages/extension/test/manifest.test.ts › manifest › carries the key whose id the daemon accepts by default',
    ],
  },
  {
    id: 'extension-permissions',
    protects: 'the manifest asks only for permissions the README justifies',
    edits: [
      {
        file: 'packages/extension/manifest.json',
        find: '    "storage",',
        replace: '    "storage",\n    "history",',
      },
    ],
    kills: [
      'packages/extension/test/manifest.test.ts › manifest › asks only for permissions its code needs, each justified in the README',
    ],
  },
  {
    id: 'gate-removed',
    protects: 'a web page reaches nothing: the gate as a whole',
    build: true,
    edits: [
      {
        file: AUTH,
        find: '  if (hasRepeatedGateHeader(rawHeaders)) return false;',
        replace: '  if (path !== "\\u0000") return true;',
      },
    ],
    kills: [
      'tests/e2e/web-page-attack.test.ts › a web page on another localhost port › cannot reach the daemon by fetch, form POST or WebSocket, and nothing runs',
    ],
  },
  {
    id: 'farm-url-not-in-argv',
    protects: "a farm URL's token reaches the daemon by its environment, never its argv",
    build: true,
    edits: [
      {
        file: 'packages/client/src/service/start.ts',
        find: "  if (implicit === true) argv.push('--implicit');",
        replace:
          "  if (implicit === true) argv.push('--implicit');\n  if (cdpUrl) argv.push('--cdp-url', cdpUrl);",
      },
    ],
    kills: [
      'tests/e2e/farm-browserless.test.ts › a browser farm, one browser per session › keeps the farm token out of the daemon’s argv and log',
    ],
  },
];
