// A scripted daemon on loopback for the client's tests: it writes the state files a real daemon
// writes (lock, port, a fresh token, all 0600) and answers POST / in the real envelope format, by
// action: `echo` answers the request it received, its headers and how many proofs it gave, `fail` a
// catalogue error, `garbage` a body that is not JSON, `other-id` an answer to another request,
// `unproven` how many requests carried a token on a socket no proof was answered on. Tests run it as
// `<tmp>/daemon.mjs` so that the client's identity check (script name + BPROXY_HOME) accepts it.
// It proves itself on POST /client/proof as the real daemon does (written out here, not imported, so
// the client's side of the proof is checked against an independent one).
import { createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const home = process.env.BPROXY_HOME;
const token = randomBytes(32).toString('hex');
let proofs = 0;
/** Requests that carried an Authorization header on a socket no proof was answered on. */
let unproven = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.url === '/client/proof' && req.headers.authorization === undefined) {
      const { clientNonce } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      proofs++;
      const serverNonce = randomBytes(32).toString('base64url');
      const port = server.address().port;
      const message = ['bproxy pairing proof v1', 'daemon-to-client', String(port), clientNonce, serverNonce];
      const proof = createHmac('sha256', token).update(message.join('\n')).digest('base64url');
      req.socket.proven = true;
      // BPROXY_TEST_CLOSE_AFTER_PROOF: close each connection once its proof is answered.
      if (process.env.BPROXY_TEST_CLOSE_AFTER_PROOF === '1') res.setHeader('connection', 'close');
      // Its version is the client's (BPROXY_FAKE_VERSION), unless a test names another.
      return send(200, {
        ok: true,
        data: { serverNonce, proof, daemonVersion: process.env.BPROXY_FAKE_VERSION || undefined },
      });
    }
    if (req.headers.authorization !== undefined && req.socket.proven !== true) unproven++;
    if (req.headers.authorization !== `Bearer ${token}`) {
      return send(401, {
        id: null,
        ok: false,
        error: { code: 'UNAUTHORIZED', category: 'auth', retry: false, message: 'unauthorized' },
      });
    }
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    switch (request.action) {
      case 'fail':
        return send(404, {
          id: request.id,
          ok: false,
          error: {
            code: 'SESSION_NOT_FOUND',
            category: 'target',
            retry: false,
            message: 'no session',
            hint: 'h',
          },
        });
      case 'unproven':
        return send(200, { id: request.id, ok: true, data: { unproven } });
      case 'garbage':
        return send(200, 'not json');
      case 'other-id':
        return send(200, { id: 'someoneelse', ok: true, data: {} });
      default:
        return send(200, {
          id: request.id,
          ok: true,
          data: {
            request,
            pid: process.pid,
            proofs,
            provenSocket: req.socket.proven === true,
            contentType: req.headers['content-type'],
          },
        });
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const write = (name, content) => writeFileSync(join(home, name), content, { mode: 0o600 });
  write('token', `${token}\n`);
  write('port', `${server.address().port}\n`);
  write('bproxy.pid', `${process.pid}\n`);
  process.stdout.write('ready\n');
});
process.on('SIGTERM', () => process.exit(0));
