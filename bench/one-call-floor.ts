/**
 * The one-call floor of the compiled CLI (compiled by bench/cli-floor.ts with the CLI's own Bun flags):
 * the least a program can do for one action — find the daemon of BPROXY_HOME exactly as the client
 * does (the same state-file checks), have the daemon prove it holds the token (POST /client/proof, as
 * every client must before sending it), make one POST of the request envelope, print the answer's body.
 * No argv grammar, no answer checking, no output formatting: what the CLI spends beyond this program
 * is its own start-up. Usage: one-call-floor ACTION [SESSION] [PARAMS_JSON]
 */
import { findDaemon, newRequestId } from '@bproxy/client';
import { CLIENT_PROOF_PATH, freshNonce, verifyProof } from '@bproxy/protocol/plain';

const [action = 'session.list', session = '', params = '{}'] = process.argv.slice(2);
const { port, token } = findDaemon(process.env);
const clientNonce = freshNonce();
const challenge = await fetch(`http://127.0.0.1:${port}${CLIENT_PROOF_PATH}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ clientNonce }),
});
const { data } = (await challenge.json()) as { data?: { serverNonce?: string; proof?: string } };
const verdict = await verifyProof(
  token,
  { role: 'daemon-to-client', port, clientNonce, serverNonce: data?.serverNonce ?? '' },
  data?.proof ?? '',
);
if (!verdict.ok) throw new Error(`what listens on port ${port} is not the daemon`);
const envelope = {
  id: newRequestId(),
  action,
  ...(session === '' ? {} : { session }),
  params: JSON.parse(params) as unknown,
  deadline: Date.now() + 30_000,
};
const response = await fetch(`http://127.0.0.1:${port}/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify(envelope),
});
const body = await response.text();
console.log('%s', body);
process.exitCode = response.ok ? 0 : 1;
