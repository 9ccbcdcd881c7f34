// A stand-in daemon for argv → request tests: it writes the state files a real daemon writes and
// answers every POST / with an error envelope whose details echo the request it received, so a test
// can see exactly what the CLI sent (a PNG screenshot is answered with success, for file output). Tests
// run it as `<tmp>/daemon.mjs` so that the CLI's identity check (script name + BPROXY_HOME) accepts it.
// Like the real daemon, it proves it holds its token on POST /client/proof before the CLI sends it.
import { createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const home = process.env.BPROXY_HOME;
const token = 'f'.repeat(64);
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    if (req.url === '/client/proof') {
      const { clientNonce } = JSON.parse(text);
      const serverNonce = randomBytes(32).toString('base64url');
      const port = server.address().port;
      const message = ['bproxy pairing proof v1', 'daemon-to-client', String(port), clientNonce, serverNonce];
      const proof = createHmac('sha256', token).update(message.join('\n')).digest('base64url');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: true,
          data: { serverNonce, proof, daemonVersion: process.env.BPROXY_FAKE_VERSION },
        }),
      );
      return;
    }
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    if (body && body.action === 'screenshot' && body.params.format === 'png') {
      // One success shape, for the CLI's file writing: the bytes are arbitrary.
      const data = {
        mimeType: 'image/png',
        data: Buffer.from('not really a png').toString('base64'),
        width: 3,
        height: 2,
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: body.id, ok: true, data }));
      return;
    }
    const details = {
      request: body,
      authorized: req.headers.authorization === `Bearer ${token}`,
      host: req.headers.host,
      contentType: req.headers['content-type'],
    };
    const error = {
      code: 'NO_EXTENSION',
      category: 'transport',
      retry: true,
      message: 'fake daemon',
      details,
    };
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: body && typeof body === 'object' ? body.id : null, ok: false, error }));
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
