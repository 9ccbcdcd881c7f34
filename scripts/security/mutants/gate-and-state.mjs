// Removals of the threat model's sections 1-3: the daemon's gate, DNS rebinding, other local users.

const SEC = 'packages/daemon/test/security.test.ts';
const PAIR = 'packages/daemon/test/pairing.test.ts';
const GATE = 'packages/daemon/test/gate.test.ts';
const AUTH = 'packages/daemon/src/auth.ts';
const SECURE = 'packages/client/src/lifecycle/secure-file.ts';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  // 1. A web page the user visits
  {
    id: 'gate-origin-exact',
    protects: 'Origin absent or exactly our extension',
    edits: [
      {
        file: AUTH,
        find: 'if (origin !== undefined && origin !== `chrome-extension://${config.extensionId}`) return false;',
        replace: '',
      },
    ],
    kills: [
      `${SEC} › gate: Origin and fetch metadata › accepts the extension origin and refuses every other`,
      `${SEC} › WS upgrade › refuses %s with 401`,
      'tests/e2e/web-page-attack.test.ts › a web page on another localhost port › cannot reach the daemon by fetch, form POST or WebSocket, and nothing runs',
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
        file: 'packages/daemon/src/server.ts',
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
        find: 'if (origin !== undefined && origin !== `chrome-extension://${config.extensionId}`) return false;',
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
    ],
  },
  {
    id: 'secure-write-mode',
    protects: 'state files are written with mode 0600 whatever the umask',
    edits: [{ file: SECURE, find: '    fchmodSync(fd, 0o600);', replace: '    fchmodSync(fd, 0o644);' }],
    kills: [
      'packages/client/test/lifecycle/secure-file.test.ts › atomic state-file writes › creates the file with mode 0600 whatever the umask, and leaves no temporary file',
      'packages/cli/test/service-lifecycle.test.ts › writes every state file with mode 0600 in a 0700 home, pairing.json with the printed code',
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
        file: 'packages/daemon/src/pairing-rate-limit.ts',
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
        file: 'packages/daemon/src/pairing.ts',
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
        file: 'packages/daemon/src/pairing.ts',
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
    kills: [`${GATE} › gate (unit) › compares secrets in constant time regardless of length`],
  },
];
