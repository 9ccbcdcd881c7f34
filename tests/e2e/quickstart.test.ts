/**
 * The README's one-command quickstart, run as a user would (`npm run quickstart` runs this script):
 * it builds, starts the daemon with the embedded headless Chromium, acts on the demo page and leaves
 * the daemon running.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeProfile } from '../kit/chromium';

const root = join(__dirname, '..', '..');
const home = mkdtempSync(join(tmpdir(), 'bproxy-quickstart-'));
const env = { ...process.env, BPROXY_HOME: home, BPROXY_PORT: '0' };
const cli = join(root, 'packages', 'cli', 'bin', 'bproxy.mjs');

afterAll(async () => {
  spawnSync(process.execPath, [cli, 'service', 'stop'], { env, timeout: 20_000 });
  await removeProfile(home);
});

describe('npm run quickstart', () => {
  it('drives the demo page through the daemon and leaves it running', () => {
    const out = execFileSync(process.execPath, [join(root, 'scripts', 'quickstart.mjs')], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(out).toMatch(/\$ bproxy tab open --url http:\/\/127\.0\.0\.1:[0-9]+\//);
    expect(out).toMatch(/textbox "Name"/);
    expect(out).toMatch(/combobox "Plan"/);
    expect(out).toContain('Welcome, Ada Lovelace (pro plan)!');
    expect(out).toMatch(/pairing code [A-Z]{4}-[A-Z]{4}/);
    const status = JSON.parse(
      execFileSync(process.execPath, [cli, 'service', 'status'], { env, encoding: 'utf8' }),
    );
    expect(status.running).toBe(true);
  }, 150_000);
});
