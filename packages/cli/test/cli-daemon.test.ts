/**
 * The CLI against a real daemon (started with `bproxy service start`): request envelope, bearer
 * token, answer parsing and the mapping of error envelopes to exit 1. Daemon-local actions only —
 * no browser is involved.
 */
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_ID_PATTERN, StartOutputSchema } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, parseJsonLine, type Harness } from './helpers/cli-harness';

let h: Harness;
let home: string;
let pid = 0;
let port = 0;
beforeAll(async () => {
  h = await createHarness();
  home = h.home();
  const start = await h.run(['service', 'start'], { home });
  if (start.code !== 0) throw new Error(`service start failed: ${start.stderr}`);
  ({ pid, port } = StartOutputSchema.parse(parseJsonLine(start.stdout)));
}, 60_000);
afterAll(async () => {
  await h.run(['service', 'stop'], { home });
  await h.cleanup();
});

describe('bproxy → daemon round trips', () => {
  it('session create prints the new session as JSON data', async () => {
    const run = await h.run(['session', 'create', '--label', 'research', '--pacing', 'fast'], { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const data = parseJsonLine(run.stdout) as {
      session: string;
      label: string;
      pacing: string;
      tmpDir: string;
    };
    expect(data.session).toMatch(SESSION_ID_PATTERN);
    expect(data).toMatchObject({ label: 'research', pacing: 'fast' });

    const list = await h.run(['session', 'list'], { home });
    expect(list.code).toBe(0);
    const sessions = (parseJsonLine(list.stdout) as { sessions: { session: string }[] }).sessions.map(
      (s) => s.session,
    );
    expect(sessions).toContain(data.session);
  });

  it('bproxy call debug.status reaches the daemon that was started', async () => {
    const run = await h.run(['call', 'debug.status'], { home });
    expect(run.code).toBe(0);
    expect(parseJsonLine(run.stdout)).toMatchObject({ pid, port });
  });

  it('--pretty prints indented JSON', async () => {
    const run = await h.run(['debug', 'status', '--pretty'], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`\n  "pid": ${pid},\n`);
  });

  it('an error envelope from the daemon is printed on stderr and exits 1', async () => {
    const run = await h.run(['session', 'close', '-s', 'aaaaaa'], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const envelope = JSON.parse(run.stderr) as {
      id: string;
      ok: boolean;
      error: { code: string; category: string; retry: boolean; hint: string };
    };
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: 'SESSION_NOT_FOUND', category: 'target', retry: false },
    });
    expect(envelope.id).toMatch(/^[a-z2-7]{12}$/);

    const pretty = await h.run(['--pretty', 'session', 'close', '-s', 'aaaaaa'], { home });
    expect(pretty.code).toBe(1);
    expect(pretty.stderr).toMatch(/^SESSION_NOT_FOUND: .+\nhint: .+\n$/);
  });

  it('a browser action without a session is refused by the daemon with SESSION_REQUIRED (exit 1)', async () => {
    const run = await h.run(['navigate', 'https://example.com'], { home });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ ok: false, error: { code: 'SESSION_REQUIRED' } });
  });

  it('takes the session from BPROXY_SESSION when -s is not given', async () => {
    const run = await h.run(['session', 'close'], { home, env: { BPROXY_SESSION: 'bbbbbb' } });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'SESSION_NOT_FOUND' } });
  });

  it('fails closed when the token file became readable by others', async () => {
    const token = join(home, 'token');
    const before = readFileSync(token, 'utf8');
    chmodSync(token, 0o644);
    try {
      const run = await h.run(['debug', 'status'], { home });
      expect(run.code).toBe(1);
      const error = JSON.parse(run.stderr) as { error: { code: string; message: string } };
      expect(error.error.code).toBe('UNSAFE_STATE_FILE');
      expect(error.error.message).toContain(`refusing to use ${token}: its mode is 0644`);
    } finally {
      chmodSync(token, 0o600);
    }
    expect(existsSync(token) && readFileSync(token, 'utf8')).toBe(before);
  });
});
