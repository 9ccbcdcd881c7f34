/**
 * `bproxy doctor` as a real process, in a temporary HOME (where Chromium has run once) and
 * BPROXY_HOME, on each state it knows without a browser: nothing set up yet, a daemon running with
 * the host installed but no extension paired, a secret file others can read, an extension id that is
 * not trusted, the host missing, a host of another version, a daemon of another version, a model SDK
 * the host's copy does not reach, a Terminal program that is not there. Each asserts the check's
 * status, the fix it names, the exit code, and the --json shape (the protocol's DoctorReportSchema).
 * The healthy install with a paired extension is tests/e2e/doctor.test.ts (Chromium).
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BPROXY_VERSION, DoctorReportSchema, type DoctorCheck, type DoctorReport } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSecret } from '@bproxy/client/lifecycle';
import { createHarness, killDaemonOf, type CliRun, type Harness } from '../../helpers/cli-harness';

let h: Harness;
const roots: string[] = [];
const states: string[] = [];
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => {
  // The daemons the tests started, found through their homes (never another process).
  for (const state of states) await killDaemonOf(state);
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  await h.cleanup();
});

interface User {
  readonly env: Record<string, string>;
  readonly home: string;
  readonly state: string;
}

/** A HOME where Chromium has run once, and a BPROXY_HOME beside it (not created). */
function user(): User {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-doctor-'));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
  writeFileSync(join(home, '.config', 'chromium', 'Local State'), '{}');
  const state = join(root, 'state');
  states.push(state);
  // No `claude` on this PATH: the Terminal falls back to the shell.
  return { env: { HOME: home, BPROXY_HOME: state, SHELL: '/bin/sh', PATH: '/usr/bin:/bin' }, home, state };
}

async function doctor(u: User, args: string[] = []): Promise<{ run: CliRun; report: DoctorReport }> {
  const run = await h.run(['doctor', '--json', ...args], { env: u.env, timeoutMs: 40_000 });
  const report = DoctorReportSchema.parse(JSON.parse(run.stdout));
  return { run, report };
}

function check(report: DoctorReport, group: string, name: string): DoctorCheck {
  const found = report.checks.find((c) => c.group === group && c.name === name);
  if (found === undefined) throw new Error(`no check ${group}.${name} in ${JSON.stringify(report.checks)}`);
  return found;
}

const failing = (report: DoctorReport) =>
  report.checks.filter((c) => c.status === 'fail').map((c) => `${c.group}.${c.name}`);

async function ok(u: User, args: string[]): Promise<string> {
  const run = await h.run(args, { env: u.env, timeoutMs: 40_000 });
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
}

/** Daemon running, host registered with Chromium: everything but an extension. */
async function installed(u: User): Promise<void> {
  await ok(u, ['host', 'install', '--browser', 'chromium']);
  await ok(u, ['service', 'start', '--browser', 'none']);
}

describe('bproxy doctor', () => {
  it('with nothing set up: says what is missing, each with its command, exits 1; text for people', async () => {
    const u = user();
    const { run, report } = await doctor(u);
    expect(run.code).toBe(1);
    expect(report).toMatchObject({ ok: false, version: BPROXY_VERSION, home: u.state });
    expect(check(report, 'daemon', 'home')).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('`bproxy service start`'),
    });
    expect(check(report, 'daemon', 'running')).toMatchObject({
      status: 'fail',
      fix: '`bproxy service start`',
    });
    expect(check(report, 'daemon', 'version').status).toBe('skip');
    expect(check(report, 'browsers', 'found')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('Chromium'),
    });
    expect(check(report, 'host', 'registered')).toMatchObject({ status: 'fail', fix: '`bproxy setup`' });
    expect(check(report, 'host', 'copy')).toMatchObject({ status: 'fail', fix: '`bproxy setup`' });
    // Optional parts warn, and do not fail the report.
    expect(check(report, 'agent', 'provider').status).toBe('warn');
    expect(check(report, 'terminal', 'program')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('/bin/sh'),
    });
    // It only read: no BPROXY_HOME was created.
    expect(() => readdirSync(u.state)).toThrow();

    const text = await h.run(['doctor'], { env: u.env, timeoutMs: 40_000 });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('FAIL running: no daemon is running');
    expect(text.stdout).toContain('fix: `bproxy service start`');
    expect(text.stdout).toMatch(/\d problems?, 1 warning: run each fix above/);
  }, 60_000);

  it('with the daemon running and the host installed but no extension: only the pairing fails, naming how to load the extension; the host answers hello in this version', async () => {
    const u = user();
    await installed(u);
    const { run, report } = await doctor(u);
    expect(failing(report)).toEqual(['extension.paired']);
    expect(run.code).toBe(1);
    expect(check(report, 'daemon', 'running').detail).toMatch(/^pid \d+, port \d+ on 127\.0\.0\.1$/);
    expect(check(report, 'daemon', 'version')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(BPROXY_VERSION),
    });
    expect(check(report, 'daemon', 'files').status).toBe('ok');
    expect(check(report, 'extension', 'paired').fix).toContain('`bproxy extension path`');
    expect(check(report, 'extension', 'paired').fix).toContain('`bproxy pair`');
    expect(check(report, 'host', 'copy')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(join(u.state, 'host', BPROXY_VERSION)),
    });
    expect(check(report, 'host', 'registered-chromium')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(`answers hello, version ${BPROXY_VERSION}`),
    });
    // No secret in the report: neither token's text.
    const text = JSON.stringify(report);
    expect(text).not.toContain(readFileSync(join(u.state, 'token'), 'utf8').trim());
  }, 60_000);

  it('names a secret file others can read, with the chmod that fixes it', async () => {
    const u = user();
    await installed(u);
    const token = join(u.state, 'token');
    chmodSync(token, 0o644);
    const { run, report } = await doctor(u);
    expect(run.code).toBe(1);
    expect(check(report, 'daemon', 'files')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`${token}: its mode is 0644`),
      fix: `\`chmod 600 ${token}\``,
    });
    // The client refuses the daemon's token too, and says so.
    expect(check(report, 'daemon', 'version').detail).toContain('UNSAFE_STATE_FILE');
    chmodSync(join(u.state, 'logs'), 0o755);
    chmodSync(token, 0o600);
    const again = await doctor(u);
    expect(check(again.report, 'daemon', 'files')).toMatchObject({
      status: 'fail',
      fix: `\`chmod 700 ${join(u.state, 'logs')}\``,
    });
  }, 60_000);

  it('says where the secret store keeps its key, and names a store that no longer opens', async () => {
    const u = user();
    await installed(u);
    expect(check((await doctor(u)).report, 'daemon', 'secrets')).toMatchObject({ status: 'ok' });
    // This machine has no keyring: the key goes to the 0600 file, and doctor says so.
    addSecret(u.state, 'bank', 'https://bank.example', 'a-long-enough-value', { keyStore: null });
    const { report } = await doctor(u);
    expect(check(report, 'daemon', 'secrets')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('1 secret(s); the key is in BPROXY_HOME/secrets.key (0600)'),
    });
    expect(JSON.stringify(report)).not.toContain('a-long-enough-value');
    writeFileSync(join(u.state, 'secrets.key'), `${Buffer.alloc(32, 1).toString('base64')}\n`, {
      mode: 0o600,
    });
    const broken = await doctor(u);
    expect(check(broken.report, 'daemon', 'secrets')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('secret bank did not verify'),
    });
  }, 60_000);

  it('says whether the id chrome://extensions shows is trusted, and how to trust it', async () => {
    const u = user();
    const id = 'ponmlkjihgfedcbaponmlkjihgfedcba';
    const { run, report } = await doctor(u, ['--extension-id', id]);
    expect(run.code).toBe(1);
    expect(check(report, 'extension', 'trusted-ids')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`extension id ${id} is not trusted`),
      fix: expect.stringContaining(`\`bproxy host install --extension-id ${id}\``),
    });
    await ok(u, ['host', 'install', '--browser', 'chromium', '--extension-id', id]);
    expect(check((await doctor(u, ['--extension-id', id])).report, 'extension', 'trusted-ids').status).toBe(
      'ok',
    );
    // An extensions.json others can read trusts nothing: named, with its fix.
    chmodSync(join(u.state, 'extensions.json'), 0o644);
    expect(check((await doctor(u)).report, 'extension', 'trusted-ids')).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining(`chmod 600 ${join(u.state, 'extensions.json')}`),
    });
    const usage = await h.run(['doctor', '--extension-id', 'not-an-id'], { env: u.env });
    expect(usage.code).toBe(2);
  }, 60_000);

  it('names a host missing from the browser (uninstalled) with `bproxy setup`', async () => {
    const u = user();
    await installed(u);
    await ok(u, ['host', 'uninstall']);
    const { run, report } = await doctor(u);
    expect(run.code).toBe(1);
    expect(check(report, 'host', 'registered')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('registered with no browser (found: Chromium)'),
      fix: '`bproxy setup`',
    });
  }, 60_000);

  it('names a host of another version, installed by an older bproxy, with `bproxy setup`', async () => {
    const u = user();
    // The bundles of release 0.0.9: this build with only its version changed.
    const older = mkdtempSync(join(tmpdir(), 'bproxy-doctor-older-'));
    roots.push(older);
    cpSync(dirname(h.cli), older, { recursive: true });
    const definition = `BPROXY_VERSION = ${JSON.stringify(BPROXY_VERSION)}`;
    for (const name of readdirSync(older).filter((file) => file.endsWith('.mjs'))) {
      const text = readFileSync(join(older, name), 'utf8');
      if (text.includes(definition))
        writeFileSync(join(older, name), text.replace(definition, 'BPROXY_VERSION = "0.0.9"'));
    }
    execFileSync(process.execPath, [join(older, 'bproxy.mjs'), 'host', 'install', '--browser', 'chromium'], {
      env: { ...u.env, PATH: process.env.PATH ?? '' },
    });
    const { run, report } = await doctor(u);
    expect(run.code).toBe(1);
    expect(check(report, 'host', 'copy')).toMatchObject({
      status: 'fail',
      detail: `the native host installed is version 0.0.9 (${join(u.state, 'host', '0.0.9')}), this bproxy is ${BPROXY_VERSION}`,
      fix: '`bproxy setup`',
    });
    expect(check(report, 'host', 'registered-chromium')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(
        `the native host is version 0.0.9, older than this bproxy ${BPROXY_VERSION}`,
      ),
      fix: '`bproxy setup`',
    });
    // The fix it names fixes it.
    await ok(u, ['setup', '--browser', 'chromium']);
    const fixed = await doctor(u);
    expect(check(fixed.report, 'host', 'copy').status).toBe('ok');
    expect(check(fixed.report, 'host', 'registered-chromium').status).toBe('ok');
  }, 90_000);

  it('names a daemon of another version with VERSION_MISMATCH and `bproxy service stop`', async () => {
    const u = user();
    const dir = mkdtempSync(join(tmpdir(), 'bproxy-doctor-daemon-'));
    roots.push(dir);
    const daemon = join(dir, 'daemon.mjs');
    const text = readFileSync(join(dirname(h.cli), 'daemon.mjs'), 'utf8');
    writeFileSync(
      daemon,
      text.replace(`BPROXY_VERSION = ${JSON.stringify(BPROXY_VERSION)}`, 'BPROXY_VERSION = "0.0.7"'),
    );
    await ok({ ...u, env: { ...u.env, BPROXY_DAEMON: daemon } }, ['service', 'start', '--browser', 'none']);
    const { run, report } = await doctor(u);
    expect(run.code).toBe(1);
    expect(check(report, 'daemon', 'running').status).toBe('ok');
    expect(check(report, 'daemon', 'version')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(
        `VERSION_MISMATCH: the running daemon is version 0.0.7, older than this bproxy ${BPROXY_VERSION}`,
      ),
      fix: expect.stringContaining('`bproxy service stop`'),
    });
  }, 60_000);

  it("names a model SDK installed beside bproxy that the native host's copy does not reach, and `bproxy agent config` says `bproxy setup` too", async () => {
    const u = user();
    await ok(u, ['host', 'install', '--browser', 'chromium']);
    await ok(u, ['agent', 'config', '--provider', 'claude-code']);
    expect(check((await doctor(u)).report, 'agent', 'sdk')).toMatchObject({ status: 'ok' });
    // openai, "installed" beside the CLI after setup: a package folder Node finds from the bundles.
    const sdk = join(dirname(h.cli), 'node_modules', 'openai');
    mkdirSync(sdk, { recursive: true });
    writeFileSync(join(sdk, 'package.json'), '{"name":"openai","version":"7.57.0"}');
    try {
      const config = await h.run(['agent', 'config', '--provider', 'openai'], { env: u.env });
      expect(config.code).toBe(0);
      expect(JSON.parse(config.stdout)).toMatchObject({
        sdk: {
          package: 'openai',
          installed: true,
          host: { dir: join(u.state, 'host', BPROXY_VERSION), installed: false },
          setup: 'bproxy setup',
        },
      });
      expect(config.stderr).toContain("the native host's copy");
      expect(config.stderr).toContain('bproxy setup');
      const { report } = await doctor(u);
      expect(check(report, 'agent', 'sdk')).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining("the native host's copy"),
        fix: '`bproxy setup`',
      });
      // `bproxy setup` (here host install) links it into the copy.
      await ok(u, ['host', 'install', '--browser', 'chromium']);
      expect(check((await doctor(u)).report, 'agent', 'sdk')).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining("found from the native host's copy"),
      });
    } finally {
      rmSync(join(dirname(h.cli), 'node_modules'), { recursive: true, force: true });
    }
  }, 60_000);

  it('names a Terminal program that is not there', async () => {
    const u = user();
    await ok(u, [
      'host',
      'install',
      '--browser',
      'chromium',
      '--terminal-command',
      'no-such-terminal-program -x',
    ]);
    const { report } = await doctor(u);
    expect(check(report, 'terminal', 'program')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('no-such-terminal-program is not found on PATH'),
      fix: expect.stringContaining('bproxy setup --terminal-command'),
    });
  }, 60_000);
});
