// Removals of the threat model's section 6, the clients' part (the daemon proves itself on every new
// connection of @bproxy/client), and of the direct pairing code of sections 3 and 10 (zero-touch
// pairing that another user's wrong codes cannot hold shut).

const NODE = 'packages/client/src/http-node.ts';
const IMPOSTOR =
  'packages/client/test/daemon-client.test.ts › a listener on the daemon port that is not the daemon';
const E2E =
  'tests/e2e/client-impostor.test.ts › a process on the port of a stopped daemon, against long-lived clients';
const ROUTE = 'packages/daemon/test/http/proof.test.ts › POST /client/proof';
const PAIR = 'packages/daemon/src/http/pair.ts';
const DIRECT_KILLS = [
  'packages/daemon/test/pairing/pairing.test.ts › pairing.issue › keeps a direct code claimable while strangers hold the throttle shut, and the typed code throttled',
  "packages/native-host/test/host-process.test.ts › zero-touch pairing through the real host › pairs by itself while another user's wrong codes hold /pair/claim shut, and a typed code stays throttled",
];

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'client-proof-asked',
    protects: 'a client has the daemon prove itself before it sends the token or a request',
    build: true,
    edits: [
      {
        file: NODE,
        find: '          await this.prove(connection, target, until);',
        replace: '          void this.prove;',
      },
    ],
    kills: [
      `${IMPOSTOR} › gets no token and no request from a client that remembered the port, %s, and the daemon restarted on a new port is used`,
      `${IMPOSTOR} › fails closed with NO_DAEMON when the daemon is gone for good, the impostor given nothing`,
      `${IMPOSTOR} › says DAEMON_NOT_PROVEN, sending nothing, when the listener of a daemon just found cannot prove itself`,
      `${IMPOSTOR} › has the daemon prove itself once per connection: once for many calls kept alive, once per call otherwise`,
      `${IMPOSTOR} › sends the token only on the socket the daemon proved itself on, never on a new one`,
      `${E2E} › bproxy mcp sends it no token and no request, never returns its forgery, and uses the daemon it starts again`,
      `${E2E} › the in-browser agent sends it no token and no request, its model never sees the forgery, and the daemon started again is used`,
    ],
  },
  {
    id: 'client-proof-failure-reconnects',
    protects: 'a listener that cannot prove itself is a daemon gone: the client looks for the daemon again',
    edits: [
      {
        file: 'packages/client/src/daemon-client.ts',
        find: "        if ((error.failure === 'refused' || error.failure === 'not-proven') && mayReconnect) {",
        replace: "        if (error.failure === 'refused' && mayReconnect) {",
      },
    ],
    kills: [
      `${IMPOSTOR} › gets no token and no request from a client that remembered the port, %s, and the daemon restarted on a new port is used`,
      `${IMPOSTOR} › fails closed with NO_DAEMON when the daemon is gone for good, the impostor given nothing`,
    ],
  },
  {
    id: 'client-proof-one-socket',
    protects: 'the token goes only on the socket the daemon proved itself on',
    edits: [
      {
        file: NODE,
        find: '      if (connection.socket !== null) {',
        replace: '      if (connection.socket !== null && connection.socket === null) {',
      },
    ],
    kills: [
      `${IMPOSTOR} › sends the token only on the socket the daemon proved itself on, never on a new one`,
    ],
  },
  {
    id: 'client-proof-gate-origin',
    protects: '/client/proof refuses any Origin at the gate',
    edits: [
      {
        file: 'packages/daemon/src/http/auth.ts',
        find: "  if (origin !== undefined && secret === 'client-proof') return false;",
        replace: '',
      },
    ],
    kills: [`${ROUTE} › refuses %s at the gate with a bare 401`],
  },
  {
    id: 'client-proof-role',
    protects: "the client proof is labelled daemon-to-client, apart from the extension's",
    edits: [
      {
        file: 'packages/daemon/src/http/proof.ts',
        find: "    const proof = await computeProof(deps.daemonToken, {\n      role: 'daemon-to-client',",
        replace:
          "    const proof = await computeProof(deps.daemonToken, {\n      role: 'daemon-to-extension',",
      },
    ],
    kills: [
      `${ROUTE} › answers a bare challenge, without a bearer, with a proof keyed by the daemon token for this port and those nonces only`,
    ],
  },
  {
    id: 'client-proof-not-logged',
    protects: 'no proof, nonce or token in the log',
    edits: [
      {
        file: 'packages/daemon/src/http/proof.ts',
        find: "    deps.logger.debug({ event: 'client_proof' });",
        replace:
          "    deps.logger.info({ event: 'client_proof', proof, clientNonce: parsed.data.clientNonce, serverNonce });",
      },
    ],
    kills: [`${ROUTE} › refuses a malformed challenge as BAD_REQUEST and logs no proof, nonce or token`],
  },
  {
    id: 'pairing-direct-code-throttled',
    protects: 'a direct code is claimable while the throttle is shut',
    edits: [
      {
        file: PAIR,
        find: '      if (!direct) {\n        const limited = rateLimited(deps, reply);',
        replace: '      if (!direct || direct) {\n        const limited = rateLimited(deps, reply);',
      },
    ],
    kills: DIRECT_KILLS,
  },
  {
    id: 'pairing-typed-code-unthrottled',
    protects: 'the throttle still holds every typed code when it lets direct codes through',
    edits: [
      {
        file: PAIR,
        find: '      if (!direct) {\n        const limited = rateLimited(deps, reply);',
        replace: '      if (!direct && direct) {\n        const limited = rateLimited(deps, reply);',
      },
    ],
    kills: DIRECT_KILLS,
  },
  {
    id: 'pairing-extension-claims-direct',
    protects: 'the extension claims the host’s direct code exactly as given',
    edits: [
      {
        file: 'packages/extension/src/background/host/host-pairing.ts',
        find: "    const kind = PAIRING_DIRECT_CODE_PATTERN.test(answer.code) ? 'direct' : 'typed';",
        replace: "    const kind = PAIRING_DIRECT_CODE_PATTERN.test(answer.code) ? 'typed' : 'typed';",
      },
    ],
    kills: [
      'packages/extension/test/background/host/host-pairing.test.ts › zero-touch pairing through the native host › pairs an unpaired browser by itself: the host starts the daemon, its direct code is claimed exactly as given',
    ],
  },
];
