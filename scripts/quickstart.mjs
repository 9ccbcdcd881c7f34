#!/usr/bin/env node
// `npm run quickstart`: from a fresh clone to a running daemon driving an embedded headless Chromium.
// Installs what is missing, builds, starts the daemon, runs a short visible sequence of real actions
// through the CLI on the project's demo page, and leaves the daemon running.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureDependencies } from './ensure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages', 'cli', 'bin', 'bproxy.mjs');
const say = (text) => process.stdout.write(`${text}\n`);
const dim = (text) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);

ensureDependencies();
let chrome;
try {
  chrome = ensureChromium();
} catch (error) {
  process.stderr.write(`\n${error.message}\n`);
  process.exit(1);
}
say('Building bproxy…');
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});

const env = { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? chrome };
/** Runs the real CLI, shows the command, returns parsed JSON (or exits with the CLI's message). */
function bproxy(args, { show = true } = {}) {
  if (show) say(`\n$ bproxy ${args.map((a) => (/[\s'"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const started = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stderr || r.stdout);
    process.exit(r.status ?? 1);
  }
  const ms = Math.round(performance.now() - started);
  return { data: JSON.parse(r.stdout), ms };
}

const status = bproxy(['service', 'status'], { show: false }).data;
let pairing = null;
if (status.running) {
  say(`\nThe daemon is already running (pid ${status.pid}, port ${status.port}); using it.`);
} else {
  const started = bproxy(['service', 'start']).data;
  pairing = started;
  say(dim(`  daemon pid ${started.pid} on 127.0.0.1:${started.port}`));
}

// The demo page is served over http on loopback while the sequence runs: agents open web pages only.
const server = spawn(process.execPath, [join(root, 'scripts', 'demo-server.mjs')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const demo = await new Promise((resolve) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const line = out.split('\n')[0];
    if (out.includes('\n')) resolve(line);
  });
  server.on('exit', () => {
    process.stderr.write('The demo page server did not start.\n');
    process.exit(1);
  });
});
const stopServer = () => {
  server.removeAllListeners('exit');
  server.stdin.end();
};
process.on('exit', stopServer);
const opened = bproxy(['tab', 'open', '--url', demo]);
const s = opened.data.session;
say(
  dim(
    `  session ${s}, tab ${opened.data.tab} in the "${opened.data.browser}" browser (${opened.ms} ms, the browser started on first use)`,
  ),
);

const text = bproxy(['-s', s, 'text']);
say(dim(`  ${text.data.text.split('\n').slice(0, 3).join(' / ')}`));

const elements = bproxy(['-s', s, 'elements']).data.elements;
for (const e of elements) say(dim(`  ${e.handle.padEnd(5)} ${e.role} "${e.name}"`));
const field = elements.find((e) => e.role === 'textbox');
const plan = elements.find((e) => e.role === 'combobox');
const button = elements.find((e) => e.role === 'button');
if (!field || !plan || !button) {
  process.stderr.write('The demo page did not list its form; see `bproxy debug last`.\n');
  process.exit(1);
}

const filled = bproxy(['-s', s, 'fill', field.handle, '--value', 'Ada Lovelace']);
say(dim(`  filled in ${filled.ms} ms (pacing: human — the daemon spaces actions like a person would)`));
bproxy(['-s', s, 'select', plan.handle, 'pro']);
const clicked = bproxy(['-s', s, 'click', button.handle]);
say(dim(`  clicked in ${clicked.ms} ms`));
const welcome = bproxy(['-s', s, 'text'])
  .data.text.split('\n')
  .find((l) => l.startsWith('Welcome'));
say(dim(`  the page now says: ${welcome ?? '(nothing?)'}`));

const snap = bproxy(['-s', s, 'snapshot']);
say(
  snap.data.snapshot
    .split('\n')
    .map((l) => dim(`  ${l}`))
    .join('\n'),
);

say(`
Done: bproxy opened a page, read it, filled a form and clicked — through the daemon, with pacing.
Session ${s} is still open and the daemon is still running. Next:

  npx bproxy -s ${s} snapshot                  # read the page again
  npx bproxy -s ${s} navigate https://…        # go somewhere (this machine may be offline)
  npx bproxy -s ${s} session close             # close the tab
  npx bproxy --help                            # every command, with examples
  npx bproxy service stop                      # stop the daemon

Drive your own Chrome: load packages/extension/dist/unpacked as an unpacked extension (chrome://extensions,
Developer mode), open its popup and enter the pairing code${pairing ? ` ${pairing.pairingCode} (valid 5 minutes)` : ' printed by `npx bproxy service start`'}.`);
stopServer();
