#!/usr/bin/env node
// Builds every package that ships something: each package with a build.mjs exports `build()`.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Order matters: the page bundle is embedded by the extension and the CDP driver.
const order = ['protocol', 'page', 'daemon', 'cdp', 'extension', 'cli', 'mcp'];
const names = readdirSync(join(root, 'packages')).sort((a, b) => order.indexOf(a) - order.indexOf(b));
for (const name of names) {
  const file = join(root, 'packages', name, 'build.mjs');
  if (!existsSync(file)) continue;
  const started = performance.now();
  const mod = await import(pathToFileURL(file).href);
  await mod.build();
  console.error(`[build] ${name} ${Math.round(performance.now() - started)} ms`);
}
