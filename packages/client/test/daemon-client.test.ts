/**
 * The daemon client against a scripted daemon on loopback (helpers/scripted-daemon.mjs, a real
 * process with real state files): the envelope it sends, the answers it reads, the local errors it
 * raises, how it finds a restarted daemon again or starts one, and how it has the daemon prove
 * itself before it sends anything on a connection — against a listener that took the daemon's port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ClientError, DaemonClient } from '../src/index';
import { FORGED_TEXT, revealed, startImpostor, type Impostor } from './helpers/impostor';

const roots: string[] = [];
const daemons: ChildProcess[] = [];
const impostors: Impostor[] = [];

function freshHome(): { home: string; script: string } {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-client-'));
  roots.push(root);
  const script = join(root, 'daemon.mjs');
  copyFileSync(join(import.meta.dirname, 'helpers', 'scripted-daemon.mjs'), script);
  const home = join(root, 'home');
  mkdirSync(home, { mode: 0o700 });
  return { home, script };
}

/** Starts the scripted daemon for `home` and resolves once its state files are written. */
function startScripted(
  script: string,
  home: string,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', BPROXY_HOME: home, BPROXY_FAKE_VERSION: BPROXY_VERSION, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  daemons.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the scripted daemon exited (${code})`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

afterEach(async () => {
  await Promise.all(daemons.splice(0).map(stop));
  await Promise.all(impostors.splice(0).map((i) => i.close()));
});
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function localError(work: Promise<unknown>): Promise<ClientError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ClientError)) throw new Error(`expected a ClientError, got ${String(error)}`);
  return error;
}

describe('daemon client', () => {
  it('sends the request envelope with the bearer token and reads the answer', async () => {
    const { home, script } = freshHome();
    await startScripted(script, home);
    const client = new DaemonClient({ env: { BPROXY_HOME: home } });
    const before = Date.now();
    const answer = await client.call('echo', { n: 1 }, { session: 'abcdef', timeoutMs: 2_000 });
    client.close();
    if (!answer.ok) throw new Error('expected a success');
    const request = answer.data.request as Record<string, unknown>;
    expect(request).toMatchObject({ id: answer.id, action: 'echo', session: 'abcdef', params: { n: 1 } });
    expect(answer.id).toMatch(/^[a-z2-7]{12}$/);
    expect(request.deadline).toBeGreaterThanOrEqual(before + 2_000);
    expect(request.deadline).toBeLessThanOrEqual(Date.now() + 2_000);
    expect(answer.data.contentType).toBe('application/json');
  });

  it("keeps the daemon's error envelope whole, and refuses answers outside the protocol", async () => {
    const { home, script } = freshHome();
    await startScripted(script, home);
    const client = new DaemonClient({ env: { BPROXY_HOME: home } });
    const failed = await client.call('fail', {});
    expect(failed).toMatchObject({
      ok: false,
      error: {
        code: 'SESSION_NOT_FOUND',
        category: 'target',
        retry: false,
        message: 'no session',
        hint: 'h',
      },
    });
    expect((await localError(client.call('garbage', {}))).code).toBe('BAD_RESPONSE');
    expect((await localError(client.call('other-id', {}))).message).toMatch(/answered request someoneelse/);
    client.close();
  });

  it('says NO_DAEMON when none runs and UNSAFE_STATE_FILE for a token others can read, with the catalogue hints', async () => {
    const { home, script } = freshHome();
    const none = await localError(new DaemonClient({ env: { BPROXY_HOME: home } }).call('echo', {}));
    expect(none).toMatchObject({ code: 'NO_DAEMON', hint: 'Run `bproxy service start`' });
    expect(none.message).toMatch(/no bproxy daemon is running for .* \(no bproxy\.pid\)/);

    await startScripted(script, home);
    chmodSync(join(home, 'token'), 0o644);
    const unsafe = await localError(new DaemonClient({ env: { BPROXY_HOME: home } }).call('echo', {}));
    expect(unsafe.code).toBe('UNSAFE_STATE_FILE');
    expect(unsafe.message).toMatch(/its mode is 0644/);
  });

  it.each([
    ['0.0.7', /the running daemon is version 0\.0\.7, older than this bproxy .*the daemon is the older part/],
    [
      '99.0.0',
      /the running daemon is version 99\.0\.0, newer than this bproxy .*this bproxy is the older part/,
    ],
    ['', /the running daemon names no version/],
  ])(
    'refuses a daemon of version "%s", which this client does not work with, with VERSION_MISMATCH and the command that fixes it',
    async (version, said) => {
      const { home, script } = freshHome();
      await startScripted(script, home, { BPROXY_FAKE_VERSION: version });
      const refused = await localError(new DaemonClient({ env: { BPROXY_HOME: home } }).call('echo', {}));
      expect(refused.code).toBe('VERSION_MISMATCH');
      expect(refused.message).toMatch(said);
      expect(refused.message).toContain('`bproxy service stop`');
      expect(refused.message).toMatch(/nothing was sent to it$/);
    },
  );

  it('works with a daemon of a compatible version (another patch release)', async () => {
    const { home, script } = freshHome();
    const [major = '0', minor = '0'] = BPROXY_VERSION.split('.');
    await startScripted(script, home, { BPROXY_FAKE_VERSION: `${major}.${minor}.99` });
    const client = new DaemonClient({ env: { BPROXY_HOME: home } });
    const answer = await client.call('echo', { n: 1 });
    client.close();
    expect(answer.ok).toBe(true);
  });

  it('finds a restarted daemon again, once, and tells its listeners', async () => {
    const { home, script } = freshHome();
    const first = await startScripted(script, home);
    const client = new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive: true });
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const before = await client.call('echo', {});
    await stop(first);
    const second = await startScripted(script, home);
    const after = await client.call('echo', {});
    client.close();
    expect(before.ok && before.data.pid).toBe(first.pid);
    expect(after.ok && after.data.pid).toBe(second.pid);
    expect(reconnects).toBe(1);
  });

  it('reports a daemon gone for good as NO_DAEMON rather than looking forever', async () => {
    const { home, script } = freshHome();
    const only = await startScripted(script, home);
    const client = new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive: true });
    await client.call('echo', {});
    await stop(only);
    expect((await localError(client.call('echo', {}))).code).toBe('NO_DAEMON');
    client.close();
  });

  it('starts the daemon through the start function it was given, only when none runs', async () => {
    const { home, script } = freshHome();
    let starts = 0;
    const client = new DaemonClient({
      env: { BPROXY_HOME: home },
      start: async () => {
        starts++;
        await startScripted(script, home);
      },
    });
    expect((await client.call('echo', {})).ok).toBe(true);
    expect((await client.call('echo', {})).ok).toBe(true);
    client.close();
    expect(starts).toBe(1);

    const failing = new DaemonClient({
      env: { BPROXY_HOME: freshHome().home },
      start: () => Promise.reject(new Error('port 9615 is in use')),
    });
    const error = await localError(failing.call('echo', {}));
    expect(error).toMatchObject({ code: 'NO_DAEMON' });
    expect(error.message).toBe('cannot find or start the bproxy daemon: port 9615 is in use');
  });
});

function stateOf(home: string): { port: number; token: string } {
  return {
    port: Number(readFileSync(join(home, 'port'), 'utf8').trim()),
    token: readFileSync(join(home, 'token'), 'utf8').trim(),
  };
}

async function impostorOn(
  port: number,
  ...rest: Parameters<typeof startImpostor> extends [number, ...infer R] ? R : never
): Promise<Impostor> {
  const impostor = await startImpostor(port, ...rest);
  impostors.push(impostor);
  return impostor;
}

describe('a listener on the daemon port that is not the daemon', () => {
  it.each([
    ['one connection per call (the CLI)', false],
    ['kept-alive connections (the MCP server, the agent)', true],
  ])(
    'gets no token and no request from a client that remembered the port, %s, and the daemon restarted on a new port is used',
    async (_kind, keepAlive) => {
      const { home, script } = freshHome();
      const first = await startScripted(script, home);
      const old = stateOf(home);
      const client = new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive });
      let reconnects = 0;
      client.onReconnect(() => reconnects++);
      expect((await client.call('echo', {})).ok).toBe(true);

      await stop(first);
      const impostor = await impostorOn(old.port);
      const second = await startScripted(script, home);
      expect(stateOf(home).port).not.toBe(old.port);

      const answer = await client.call('echo', { password: 'hunter2' });
      client.close();
      expect(answer.ok && answer.data.pid).toBe(second.pid);
      expect(JSON.stringify(answer)).not.toContain(FORGED_TEXT);
      expect(reconnects).toBe(1);
      // It was asked to prove itself, and given nothing else.
      expect(impostor.received.map((r) => r.path)).toEqual(['/client/proof']);
      expect(revealed(impostor, old.token)).toEqual([]);
      expect(JSON.stringify(impostor.received)).not.toContain('hunter2');
    },
  );

  it('fails closed with NO_DAEMON when the daemon is gone for good, the impostor given nothing', async () => {
    const { home, script } = freshHome();
    const only = await startScripted(script, home);
    const old = stateOf(home);
    const client = new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive: true });
    await client.call('echo', {});
    await stop(only);
    const impostor = await impostorOn(old.port);
    const error = await localError(client.call('text', { password: 'hunter2' }, { session: 'abcdef' }));
    client.close();
    expect(error.code).toBe('NO_DAEMON');
    expect(revealed(impostor, old.token)).toEqual([]);
  });

  it('says DAEMON_NOT_PROVEN, sending nothing, when the listener of a daemon just found cannot prove itself', async () => {
    const { home, script } = freshHome();
    await startScripted(script, home);
    const real = stateOf(home);
    // A relay: it passes the challenge to the real daemon and returns the real daemon's proof — made
    // for the real daemon's port, not for this one.
    const relay = await impostorOn(0, async (challenge) => {
      const res = await fetch(`http://127.0.0.1:${real.port}/client/proof`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: challenge,
      });
      return { status: res.status, body: await res.text() };
    });
    const forger = await impostorOn(0);
    for (const impostor of [relay, forger]) {
      const client = new DaemonClient({ endpoint: { home, port: impostor.port, token: real.token } });
      const error = await localError(client.call('echo', { password: 'hunter2' }));
      client.close();
      expect(error).toMatchObject({ code: 'DAEMON_NOT_PROVEN' });
      expect(error.message).toMatch(new RegExp(`port ${impostor.port} cannot prove .*nothing was sent`));
      expect(error.message).not.toContain(real.token);
      expect(impostor.received.map((r) => r.path)).toEqual(['/client/proof']);
      expect(revealed(impostor, real.token)).toEqual([]);
    }
  });

  it('has the daemon prove itself once per connection: once for many calls kept alive, once per call otherwise', async () => {
    const { home, script } = freshHome();
    await startScripted(script, home);
    const kept = new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive: true });
    const proofsKept: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await kept.call('echo', {});
      proofsKept.push(answer.ok && answer.data.proofs);
    }
    kept.close();
    expect(proofsKept).toEqual([1, 1, 1, 1, 1]);
    const oneShot = new DaemonClient({ env: { BPROXY_HOME: home } });
    const proofsOneShot: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await oneShot.call('echo', {});
      proofsOneShot.push(answer.ok && answer.data.proofs);
    }
    oneShot.close();
    expect(proofsOneShot).toEqual([2, 3, 4]);
  });

  it('sends the token only on the socket the daemon proved itself on, never on a new one', async () => {
    const { home, script } = freshHome();
    await startScripted(script, home);
    const client = new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive: true });
    const answer = await client.call('echo', {});
    expect(answer.ok && answer.data.provenSocket).toBe(true);
    client.close();

    // A daemon that closes every connection once it answered the proof: the request cannot follow it
    // on the same socket, and is never sent on another without a proof of its own.
    const closing = freshHome();
    await startScripted(closing.script, closing.home, { BPROXY_TEST_CLOSE_AFTER_PROOF: '1' });
    for (const keepAlive of [true, false]) {
      const stubborn = new DaemonClient({ env: { BPROXY_HOME: closing.home }, keepAlive });
      expect((await localError(stubborn.call('echo', {}))).code).toBe('DAEMON_UNREACHABLE');
      stubborn.close();
    }
    const { port, token } = stateOf(closing.home);
    const counted = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ id: 'count', action: 'unproven' }),
    });
    // The test's own request above is the only one that came without a proof.
    expect(await counted.json()).toMatchObject({ data: { unproven: 1 } });
  });
});
