/**
 * `bproxy secret` as a person runs it: at a terminal the value is asked for and not echoed; piped,
 * it is read from stdin; it is never taken from argv (an extra argument is a usage error); list shows
 * names and origins only; remove of an unknown name is SECRET_NOT_FOUND.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn as spawnPty } from '@lydell/node-pty';
import { describe, expect, it } from 'vitest';

const CLI = join(__dirname, '..', 'bin', 'bproxy.mjs');
const VALUE = 'typed-at-the-prompt-77';

function home(): Record<string, string> {
  const state = join(mkdtempSync(join(tmpdir(), 'bproxy-secret-cli-')), 'state');
  return { ...(process.env as Record<string, string>), BPROXY_HOME: state };
}

describe('bproxy secret', () => {
  it('asks for the value at a terminal without echoing it, and stores it sealed', async () => {
    const env = home();
    const pty = spawnPty(
      process.execPath,
      [CLI, 'secret', 'add', 'bank', '--origin', 'https://bank.example'],
      {
        env,
        cols: 120,
        rows: 20,
      },
    );
    let screen = '';
    pty.onData((d) => (screen += d));
    const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
    const prompted = async () => {
      const end = Date.now() + 20_000;
      while (!screen.includes('(not shown)')) {
        if (Date.now() > end) throw new Error(`no prompt: ${screen}`);
        await new Promise((r) => setImmediate(r));
      }
    };
    await prompted();
    pty.write(`${VALUE}\r`);
    expect(await exited).toBe(0);
    expect(screen).toContain('"added":"bank"');
    expect(screen).not.toContain(VALUE);
    expect(readFileSync(join(env.BPROXY_HOME ?? '', 'secrets.json'), 'utf8')).not.toContain(VALUE);
  }, 40_000);

  it('reads a piped value, never an argument, and lists names and origins only', () => {
    const env = home();
    const added = spawnSync(
      process.execPath,
      [CLI, 'secret', 'add', 'bank', '--origin', 'https://bank.example/'],
      {
        env,
        input: `${VALUE}\n`,
        encoding: 'utf8',
      },
    );
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      added: 'bank',
      origin: 'https://bank.example',
      key: 'file',
    });
    const argv = spawnSync(
      process.execPath,
      [CLI, 'secret', 'add', 'mail', VALUE, '--origin', 'https://m.example'],
      {
        env,
        input: '',
        encoding: 'utf8',
      },
    );
    expect(argv.status).toBe(2);
    expect(argv.stderr).toContain('too many arguments');
    const listed = execFileSync(process.execPath, [CLI, 'secret', 'list'], { env, encoding: 'utf8' });
    expect(JSON.parse(listed)).toEqual({
      secrets: [{ name: 'bank', origin: 'https://bank.example', added: expect.any(String) as string }],
    });
    expect(listed).not.toContain(VALUE);
    const gone = spawnSync(process.execPath, [CLI, 'secret', 'remove', 'nope'], { env, encoding: 'utf8' });
    expect(gone.status).not.toBe(0);
    expect(gone.stderr).toContain('SECRET_NOT_FOUND');
    const path = spawnSync(
      process.execPath,
      [CLI, 'secret', 'add', 'x', '--origin', 'https://a.example/login'],
      {
        env,
        input: `${VALUE}\n`,
        encoding: 'utf8',
      },
    );
    expect(path.status).toBe(2);
    expect(path.stderr).toContain('give the origin only');
  });
});
