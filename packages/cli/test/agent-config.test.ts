/**
 * `bproxy agent config` as a real process: keys come from stdin or a named environment variable,
 * never argv; they land in a 0600 file that is refused when others can read it; the command shows
 * the key only as set or unset.
 */
import { execFile } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type CliRun, type Harness } from './helpers/cli-harness';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
}, 60_000);
afterAll(async () => {
  await harness?.cleanup();
});

function agent(home: string, args: string[], input = '', env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [harness.cli, 'agent', 'config', ...args],
      {
        env: { PATH: process.env.PATH ?? '', BPROXY_HOME: home, ...env },
        timeout: 20_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          stdout,
          stderr,
        }),
    );
    child.stdin?.end(input);
  });
}

const KEY = 'sk-ant-api03-very-secret-value';

describe('bproxy agent config', () => {
  it('shows an empty configuration', async () => {
    const home = harness.home();
    const run = await agent(home, []);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ provider: null, configured: false });
  });

  it('reads the key from stdin into a 0600 file, and shows it only as set', async () => {
    const home = harness.home();
    const run = await agent(home, ['--provider', 'anthropic', '--key-stdin'], `${KEY}\n`);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      provider: 'anthropic',
      models: { fast: 'claude-haiku-4-5', strong: 'claude-sonnet-4-5' },
      key: 'set',
      configured: true,
    });
    expect(run.stdout + run.stderr).not.toContain('very-secret');
    const keys = join(home, 'agent', 'keys.json');
    expect(statSync(keys).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'agent', 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(keys, 'utf8'))).toEqual({ version: 1, keys: { anthropic: KEY } });
    const shown = await agent(home, []);
    expect(JSON.parse(shown.stdout)).toMatchObject({ key: 'set' });
    expect(shown.stdout).not.toContain('very-secret');
  });

  it('reads the key from a named environment variable, and takes no key on the command line', async () => {
    const home = harness.home();
    const run = await agent(
      home,
      ['--provider', 'openai', '--key-env', 'MY_KEY', '--fast', 'gpt-4.1-mini'],
      '',
      {
        MY_KEY: 'sk-from-env-123',
      },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      provider: 'openai',
      key: 'set',
      models: { fast: 'gpt-4.1-mini' },
    });
    const flag = await agent(home, ['--key', 'sk-in-argv']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/unknown option '--key'/);
  });

  it('configures a local OpenAI-compatible endpoint without a key', async () => {
    const home = harness.home();
    const run = await agent(home, [
      '--provider',
      'openai',
      '--base-url',
      'http://127.0.0.1:11434/v1',
      '--fast',
      'llama3.1',
    ]);
    expect(JSON.parse(run.stdout)).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
      key: 'unset',
      configured: true,
    });
  });

  it('refuses a key file others can read, and exits 1 without printing the key', async () => {
    const home = harness.home();
    await agent(home, ['--provider', 'anthropic', '--key-stdin'], KEY);
    chmodSync(join(home, 'agent', 'keys.json'), 0o644);
    const run = await agent(home, []);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ ok: false, error: { code: 'UNSAFE_STATE_FILE' } });
    expect(run.stderr).toMatch(/chmod 600/);
    expect(run.stdout + run.stderr).not.toContain('very-secret');
  });

  it('refuses an unknown provider and a base URL that is not http(s), as usage errors', async () => {
    const home = harness.home();
    expect((await agent(home, ['--provider', 'gemini'])).code).toBe(2);
    const bad = await agent(home, ['--provider', 'openai', '--base-url', 'file:///etc/passwd']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--base-url must be an http/);
  });

  it('shares notes across chats only when the user says so, with or without a provider', async () => {
    const home = harness.home();
    expect(JSON.parse((await agent(home, [])).stdout)).toMatchObject({ sharedNotes: false });
    const on = await agent(home, ['--shared-notes', 'on']);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ sharedNotes: true });
    const config = join(home, 'agent', 'config.json');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toMatchObject({ sharedNotes: true });
    await agent(home, ['--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1']);
    expect(JSON.parse((await agent(home, ['--shared-notes', 'off'])).stdout)).toMatchObject({
      provider: 'openai',
      sharedNotes: false,
    });
    const bad = await agent(home, ['--shared-notes', 'yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--shared-notes takes on or off/);
  });
});
