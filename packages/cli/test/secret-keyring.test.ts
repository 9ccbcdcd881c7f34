/**
 * `bproxy secret` with a real OS keyring (Linux): a D-Bus session bus and an unlocked gnome-keyring
 * started by the test (helpers/session-keyring.ts), the real secret-tool, the built CLI. The store's
 * key lands in the keyring and in no file, doctor says so, secrets open with it, and a locked keyring
 * is named by doctor instead of the store silently opening from elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DoctorReportSchema, type DoctorCheck } from '@bproxy/protocol';
import { homeAccount, readSecret, secretToolKeychain, type ToolRunner } from '@bproxy/client/lifecycle';
import { startSessionKeyring, type SessionKeyring } from './helpers/session-keyring';

const CLI = join(__dirname, '..', 'bin', 'bproxy.mjs');
const VALUE = 'a-value-sealed-under-the-keyring-key';
const ORIGIN = 'https://bank.example';

/** Every file under `dir`, its content as text. */
function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile()) found.set(path, readFileSync(path).toString('latin1'));
  }
  return found;
}

describe.runIf(process.platform === 'linux')('bproxy secret with a real keyring (libsecret)', () => {
  let keyring: SessionKeyring | undefined;
  const k = (): SessionKeyring => {
    if (keyring === undefined) throw new Error('no keyring');
    return keyring;
  };
  const state = join(mkdtempSync(join(tmpdir(), 'bproxy-keyring-state-')), 'state');
  const cli = (args: string[], input = '') =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...k().env, BPROXY_HOME: state, SHELL: '/bin/sh' },
      input,
      encoding: 'utf8',
      timeout: 40_000,
    });
  const secretsCheck = (): DoctorCheck => {
    const run = cli(['doctor', '--json']);
    const report = DoctorReportSchema.parse(JSON.parse(run.stdout));
    const found = report.checks.find((c) => c.group === 'daemon' && c.name === 'secrets');
    if (found === undefined) throw new Error(`no daemon.secrets check: ${run.stdout}`);
    return found;
  };

  beforeAll(async () => {
    keyring = await startSessionKeyring();
  }, 30_000);
  afterAll(async () => {
    await keyring?.stop();
  }, 15_000);

  it('keeps the store key in the keyring and in no file, says so in doctor, and opens secrets with it', () => {
    const added = cli(['secret', 'add', 'bank', '--origin', ORIGIN], `${VALUE}\n`);
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ added: 'bank', key: 'secret-tool' });
    // The key is in the keyring, under this BPROXY_HOME's account, as the real secret-tool gives it back.
    const lookup = k().secretTool(['lookup', 'service', 'bproxy', 'account', homeAccount(state)]);
    expect(lookup.status).toBe(0);
    const key = lookup.stdout.trim();
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    // No key file, and neither the key nor the value in any file of BPROXY_HOME or HOME (the keyring's
    // own file holds the key encrypted under the login password).
    expect(() => statSync(join(state, 'secrets.key'))).toThrow();
    expect(readdirSync(k().home, { recursive: true })).toContain(join('.local', 'share', 'keyrings'));
    for (const [path, text] of [...filesUnder(state), ...filesUnder(k().home)]) {
      expect(text, path).not.toContain(key);
      expect(text, path).not.toContain(VALUE);
    }
    // A second secret uses the same key, still with no file.
    const more = cli(['secret', 'add', 'mail', '--origin', 'https://mail.example'], 'another-value\n');
    expect(JSON.parse(more.stdout)).toMatchObject({ key: 'secret-tool' });
    expect(() => statSync(join(state, 'secrets.key'))).toThrow();
    // Round trip through the real secret-tool in this session.
    const run: ToolRunner = (command, args, input) => {
      const r = spawnSync(command, [...args], { env: k().env, input, encoding: 'utf8', timeout: 10_000 });
      return r.error !== undefined || r.status === null ? null : { status: r.status, stdout: r.stdout };
    };
    const keyStore = secretToolKeychain(state, run);
    expect(readSecret(state, 'bank', { keyStore })).toEqual({ origin: ORIGIN, value: VALUE });
    expect(readSecret(state, 'mail', { keyStore })?.value).toBe('another-value');
    // Doctor opens every secret with the key from the keyring, and says where it is.
    expect(secretsCheck()).toMatchObject({
      status: 'ok',
      detail: '2 secret(s); the key is in the OS keyring (libsecret, through secret-tool)',
    });
    const listed = cli(['secret', 'list']);
    expect(listed.stdout).not.toContain(VALUE);
  }, 90_000);

  it('names a locked keyring in doctor: the store does not open from anywhere else', () => {
    expect(k().lock()).toBe(true);
    expect(secretsCheck()).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('could not be read from secret-tool (is the keyring unlocked?)'),
    });
    expect(() => statSync(join(state, 'secrets.key'))).toThrow();
  }, 60_000);
});
