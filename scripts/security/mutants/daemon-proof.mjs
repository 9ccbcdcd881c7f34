// Removals of the threat model's section 6: a process that listens on the daemon's port while the
// daemon is down.

const PROOF = 'packages/protocol/src/pairing/proof-crypto.ts';
const WS_AUTH = 'packages/protocol/src/pairing/daemon-proof.ts';
const EXT_PROOF =
  'packages/extension/test/background/daemon/daemon-proof.test.ts › proving the daemon before revealing the token';
const CONNECTION = 'packages/extension/test/background/daemon/connection.test.ts › daemon connection';
const IMPOSTOR =
  'tests/e2e/impostor.test.ts › a process listening on the daemon’s port while the daemon is down › gets no token and no obedience, and the real daemon is welcomed back without re-pairing';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'proof-failure-shown',
    protects: "the popup's status says why the last proof failed, not the attempt its own poll starts",
    edits: [
      {
        file: 'packages/extension/src/background/daemon/popup-relay.ts',
        find: "    if (msg.type === 'status') sendResponse(opts.status());\n    opts.wake();",
        replace: "    opts.wake();\n    if (msg.type === 'status') sendResponse(opts.status());",
      },
    ],
    kills: [
      "packages/extension/test/background/daemon/popup-relay.test.ts › the popup's status › tells why the last attempt failed, though each poll a second later wakes a new attempt",
    ],
  },
  {
    id: 'proof-verified',
    protects: "the extension checks the daemon's proof before it reveals the token",
    edits: [
      {
        file: PROOF,
        find: "  return good ? { ok: true } : { ok: false, reason: 'mismatch' };",
        replace: '  return good || !good ? { ok: true } : { ok: false, reason: "mismatch" };',
      },
    ],
    kills: ['packages/protocol/test/pairing/daemon-proof.test.ts', EXT_PROOF],
  },
  {
    id: 'proof-not-reflected',
    protects: "an answer that echoes the extension's own nonce is no proof",
    edits: [
      {
        file: PROOF,
        find: "  if (input.serverNonce === input.clientNonce) return { ok: false, reason: 'reflected' };",
        replace: '',
      },
    ],
    kills: ['packages/protocol/test/pairing/daemon-proof.test.ts', EXT_PROOF],
  },
  {
    id: 'proof-bound-to-port',
    protects: 'a proof is bound to the port, so one relayed from elsewhere fails',
    edits: [
      {
        file: PROOF,
        find: '    [LABEL, input.role, String(input.port), input.clientNonce, input.serverNonce].join',
        replace: '    [LABEL, input.role, input.clientNonce, input.serverNonce].join',
      },
    ],
    kills: ['packages/protocol/test/pairing/daemon-proof.test.ts', EXT_PROOF],
  },
  {
    id: 'proof-before-socket',
    protects: 'no socket, no token on the wire, before the proof succeeded',
    edits: [
      {
        file: 'packages/extension/src/background/daemon/connection.ts',
        find: '    if (!proof.ok) {\n      if (proof.kind',
        replace: '    if (!proof.ok && proof.ok) {\n      if (proof.kind',
      },
    ],
    build: true,
    kills: [
      `${CONNECTION} › opens no socket for a server that cannot prove the pairing, says so, and keeps retrying quietly`,
      IMPOSTOR,
    ],
  },
  {
    id: 'proof-asked-first',
    protects: 'the proof is asked of the paired URL with the paired token',
    edits: [
      {
        file: 'packages/extension/src/background/daemon/connection.ts',
        find: '      proof = await this.opts.prove(pairing.wsUrl, pairing.extensionToken);',
        replace: '      proof = { ok: true };',
      },
    ],
    kills: [`${CONNECTION} › asks for the proof with the paired URL and token before it opens any socket`],
  },
  {
    id: 'proof-route-not-paired',
    protects: 'an unpaired daemon proves nothing',
    edits: [
      {
        file: 'packages/daemon/src/http/proof.ts',
        find: '    const token = deps.tokens.get();\n    if (token === null) {',
        replace: "    const token = deps.tokens.get() ?? '';\n    if (token === null) {",
      },
    ],
    kills: ['packages/daemon/test/http/proof.test.ts › POST /pair/proof'],
  },
  {
    id: 'proof-route-port',
    protects: 'the daemon proves for the port it is bound to',
    edits: [
      {
        file: 'packages/daemon/src/http/proof.ts',
        find: "      role: 'daemon-to-extension',\n      port: deps.port(),",
        replace: "      role: 'daemon-to-extension',\n      port: 1,",
      },
    ],
    kills: ['packages/daemon/test/http/proof.test.ts › POST /pair/proof'],
  },
  {
    id: 'proof-route-rotated',
    protects: 'after a new pairing the daemon proves with the new token only',
    edits: [
      {
        file: 'packages/daemon/src/http/proof.ts',
        find: 'export function registerProofRoute(app: FastifyInstance, deps: ProofRouteDeps): void {',
        replace:
          'export function registerProofRoute(app: FastifyInstance, deps: ProofRouteDeps): void {\n  const first = deps.tokens.get();',
      },
      {
        file: 'packages/daemon/src/http/proof.ts',
        find: '    const token = deps.tokens.get();\n    if (token === null) {',
        replace: '    const token = first;\n    if (token === null) {',
      },
    ],
    kills: [
      'packages/daemon/test/http/proof.test.ts › proves with the new token only, once a new pairing rotated it',
    ],
  },
  {
    id: 'ws-auth-encoded',
    protects: 'the /ws credential is base64url-encoded as the seed prescribes',
    edits: [
      {
        file: WS_AUTH,
        find: '  const bytes = base64UrlDecode(entry.slice(WS_AUTH_PREFIX.length));\n  if (!bytes || bytes.length === 0) return null;',
        replace:
          '  const raw = entry.slice(WS_AUTH_PREFIX.length);\n  if (raw.length > 40) return raw;\n  const bytes = base64UrlDecode(raw);\n  if (!bytes || bytes.length === 0) return null;',
      },
    ],
    kills: [
      'packages/daemon/test/http/gate.test.ts › gate (unit) › refuses the token sent without the base64url encoding the seed prescribes',
    ],
  },
];
