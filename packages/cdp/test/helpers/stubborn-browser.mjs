/**
 * A stand-in for Chromium that will not go: it answers Browser.getVersion on its CDP pipe (fd 3 in,
 * fd 4 out, NUL-ended JSON), then ignores Browser.close, SIGTERM, SIGINT and the pipe closing, and
 * keeps writing into its profile until it is killed. It prints nothing; its pid is the child's.
 */
import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';

process.on('SIGTERM', () => {});
process.on('SIGINT', () => {});
const profile = process.argv.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
const out = createWriteStream('', { fd: 4 });
const input = createReadStream('', { fd: 3 });
out.on('error', () => {});
input.on('error', () => {});
let buffered = '';
input.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  for (let end = buffered.indexOf('\0'); end !== -1; end = buffered.indexOf('\0')) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (message.method === 'Browser.getVersion') {
      const result = {
        protocolVersion: '1.3',
        product: 'Stubborn/1',
        userAgent: 'Stubborn/1',
        revision: '0',
        jsVersion: '0',
      };
      out.write(`${JSON.stringify({ id: message.id, result })}\0`);
    }
    // Browser.close and everything else: never answered.
  }
});
setInterval(() => {
  if (profile !== undefined) writeFileSync(join(profile, 'still-writing'), String(Date.now()));
}, 20);
