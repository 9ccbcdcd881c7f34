#!/usr/bin/env node
// Serves the demo page (demo/index.html) on 127.0.0.1 for `npm run quickstart`: agents open http: and
// https: pages only, never local files. Prints the page's URL on its first line and stops when its
// stdin closes (the quickstart ends), so nothing is left listening.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const page = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'demo', 'index.html'));
const server = createServer((req, res) => {
  if (req.url === '/' || req.url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') process.exit(1);
  process.stdout.write(`http://127.0.0.1:${address.port}/\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
