#!/usr/bin/env node
// `npm run bench [name…]`: every benchmark, one after another (or the ones named), each through its
// own `npm run bench:<name>` so the two ways of running one never differ. Figures go to stdout; a
// benchmark that fails stops the run with its exit code. `bench:peers` installs and times other tools
// and `soak` runs for minutes: both run only when named, as does `approvals` (the approvals' read
// before a click, with and without).
import { spawnSync } from 'node:child_process';

const DEFAULT = ['daemon', 'cdp', 'e2e', 'bridge', 'farm', 'agent', 'panel'];
const KNOWN = new Set([...DEFAULT, 'peers', 'approvals']);

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !KNOWN.has(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${[...KNOWN].join(', ')}`);
  process.exit(2);
}
for (const name of asked.length > 0 ? asked : DEFAULT) {
  console.log(`\n=== npm run bench:${name}`);
  const run = spawnSync('npm', ['run', '--silent', `bench:${name}`], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
