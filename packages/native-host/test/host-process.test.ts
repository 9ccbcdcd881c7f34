/**
 * The built host as a real process on real pipes, as a browser runs it: stdout carries frames and
 * nothing else (even when a handler prints), a caller that is not our extension is refused before
 * stdin is read, signals and a closed port end it cleanly, and zero-touch pairing against a real
 * daemon — started implicitly, detached, in its own process group — yields a code /pair/claim accepts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@bproxy/client';
import { isOurDaemon } from '@bproxy/client/lifecycle';
import {
  DEFAULT_EXTENSION_ID,
  ExtensionToHostSchema,
  HostToExtensionSchema,
  NativeChunkSchema,
  PairClaimResponseSchema,
} from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hostileJson, hostileValues, withField } from '../../../tests/fixtures/hostile-json';
import { FrameDecoder, encodeFrame, frameHeader } from '../src/framing';
import {
  OUR_ORIGIN,
  buildBundles,
  cleanup,
  daemonPidOf,
  exitWithin,
  spawnHost,
  type Bundles,
  type HostProcess,
} from './helpers/host-process';
import { HELLO } from './helpers/port';

let bundles: Bundles | null = null;
const homes: string[] = [];

beforeAll(async () => {
  bundles = await buildBundles();
}, 60_000);
afterAll(() => cleanup(homes, bundles), 30_000);

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-host-home-'));
  homes.push(dir);
  return dir;
}

function envFor(stateHome: string): Record<string, string> {
  // As a browser starts it: no PATH to find Node on, only HOME (and BPROXY_HOME from the launcher).
  return { HOME: stateHome, BPROXY_HOME: stateHome, BPROXY_PORT: '0' };
}

function realHost(origin: string, stateHome: string): HostProcess {
  if (bundles === null) throw new Error('not built');
  return spawnHost([process.execPath, bundles.nativeHost], [origin], envFor(stateHome));
}

/** Every byte of `stdout` is part of a frame holding a message of the port's protocol. */
function expectOnlyFrames(stdout: Buffer): number {
  const decoder = new FrameDecoder(1024 * 1024);
  const events = decoder.push(stdout);
  expect(decoder.end()).toEqual({ torn: false });
  for (const event of events) {
    expect(event.kind).toBe('message');
    if (event.kind !== 'message') continue;
    const known =
      HostToExtensionSchema.safeParse(event.value).success ||
      NativeChunkSchema.safeParse(event.value).success;
    expect(known, JSON.stringify(event.value)).toBe(true);
  }
  return events.length;
}

function hostLog(stateHome: string): string {
  return readFileSync(join(stateHome, 'host', 'host.log'), 'utf8');
}

describe('stdout of the real host process', () => {
  it('carries frames only, through errors, refusals, an oversized message and the close', async () => {
    const stateHome = home();
    const host = realHost(OUR_ORIGIN, stateHome);
    host.browser.send({ type: 'daemon.locate', id: 'early', start: false });
    host.browser.send(HELLO);
    host.browser.send({ type: 'daemon.locate', id: 'l1', start: false });
    host.browser.send({ type: 'pairing.request', id: 'p1', extra: true });
    host.browser.send({ type: 'no.such.type' });
    host.browser.send({ type: 'user', chatId: 'c1', text: 'hello', session: 'abcdef' });
    host.browser.send({ type: 'pty.input', termId: 't1', data: 'no terminal was opened' });
    const oversize = 64 * 1024 * 1024 + 1;
    host.browser.sendRaw(frameHeader(oversize));
    await host.browser.next((m) => m.type === 'error' && m.code === 'PAYLOAD_TOO_LARGE');
    const piece = Buffer.alloc(4 * 1024 * 1024, 0x41);
    for (let sent = 0; sent < oversize; sent += piece.length)
      host.browser.sendRaw(piece.subarray(0, Math.min(piece.length, oversize - sent)));
    host.browser.send({ type: 'daemon.locate', id: 'last', start: false });
    await host.browser.next((m) => m.type === 'daemon.location' && m.id === 'last');
    host.child.stdin.end();
    expect(await exitWithin(host, 10_000)).toEqual({ code: 0, signal: null });
    // Every frame is one message of the protocol (none here is large enough to be chunked).
    expect(expectOnlyFrames(host.stdout())).toBe(host.browser.received.length);
    expect(host.browser.received).toContainEqual(
      expect.objectContaining({ type: 'error', termId: 't1', code: 'BAD_REQUEST' }),
    );
    expect(host.browser.violations).toEqual([]);
  });

  it('carries frames only when a handler prints to the console and to stdout itself', async () => {
    const stateHome = home();
    const fixture = join(__dirname, 'fixtures', 'noisy-host.ts');
    const host = spawnHost([process.execPath, '--import', 'tsx', fixture], [OUR_ORIGIN], envFor(stateHome));
    host.browser.send(HELLO);
    host.browser.send({ type: 'user', chatId: 'c1', text: 'print things', session: 'abcdef' });
    expect(await host.browser.next((m) => m.type === 'delta', 20_000)).toEqual({
      type: 'delta',
      chatId: 'c1',
      text: 'still framed',
    });
    host.child.stdin.end();
    expect((await exitWithin(host, 10_000)).code).toBe(0);
    expectOnlyFrames(host.stdout());
    expect(host.stdout().toString('latin1')).not.toContain('SECRET-PAGE-TEXT');
    const log = hostLog(stateHome);
    expect(log).toContain('"event":"stray_console","method":"log"');
    expect(log).toContain('"event":"stray_stdout_write"');
    expect(log).not.toContain('SECRET-PAGE-TEXT');
  }, 30_000);
});

describe('hostile messages to the real host', () => {
  it('answers BAD_REQUEST to messages 100,000 deep, wide or huge in any field, and serves the next', async () => {
    const stateHome = home();
    const host = realHost(OUR_ORIGIN, stateHome);
    host.browser.send(HELLO);
    await host.browser.next((m) => m.type === 'welcome');
    const base = { type: 'daemon.locate', id: 'h', start: false };
    const fields = ['type', 'id', 'start', 'chatId', 'text', 'extra'];
    let round = 0;
    const roundTrip = async (json: string) => {
      const errorsBefore = host.browser.received.filter((m) => m.type === 'error').length;
      host.browser.sendRaw(encodeFrame(json));
      const id = `after${++round}`;
      host.browser.send({ type: 'daemon.locate', id, start: false });
      await host.browser.next((m) => m.type === 'daemon.location' && m.id === id);
      const errors = host.browser.received.filter((m) => m.type === 'error');
      expect(errors.length).toBe(errorsBefore + 1);
      const last = errors.at(-1);
      expect(last?.type === 'error' && last.code).toBe('BAD_REQUEST');
    };
    for (const { json } of hostileValues(4 * 1024 * 1024)) {
      await roundTrip(json);
      for (const field of fields) await roundTrip(withField(base, field, json));
    }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), hostileJson(1024 * 1024), async (field, json) => {
        const payload = withField(base, field, json);
        // A small value may be a valid one for its field (an id "x"): those are not the point here.
        fc.pre(!ExtensionToHostSchema.safeParse(JSON.parse(payload)).success);
        await roundTrip(payload);
      }),
      { numRuns: 40 },
    );
    host.child.stdin.end();
    expect(await exitWithin(host, 10_000)).toEqual({ code: 0, signal: null });
    expect(host.browser.violations).toEqual([]);
    expect(hostLog(stateHome)).not.toContain('message_failed');
  }, 60_000);
});

describe('the caller-origin gate of the real process', () => {
  it.each([
    ['another extension', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/'],
    ['our id without the trailing slash', `chrome-extension://${DEFAULT_EXTENSION_ID}`],
  ])('exits non-zero for %s with stdin still open, answering nothing', async (_what, origin) => {
    const stateHome = home();
    const host = realHost(origin, stateHome);
    host.browser.send(HELLO);
    expect(await exitWithin(host, 10_000)).toEqual({ code: 1, signal: null });
    expect(host.stdout().length).toBe(0);
    expect(hostLog(stateHome)).toContain('"event":"caller_refused"');
  });
});

describe('the end of the real process', () => {
  it('comes with exit 0 on SIGTERM, logged', async () => {
    const stateHome = home();
    const host = realHost(OUR_ORIGIN, stateHome);
    host.browser.send(HELLO);
    await host.browser.next((m) => m.type === 'welcome');
    host.child.kill('SIGTERM');
    expect(await exitWithin(host, 10_000)).toEqual({ code: 0, signal: null });
    expect(hostLog(stateHome)).toContain('"event":"stopping","why":"signal"');
  });
});

describe('zero-touch pairing through the real host', () => {
  it('starts the daemon implicitly, detached in its own process group, and hands out a code /pair/claim accepts', async () => {
    const stateHome = home();
    const host = realHost(OUR_ORIGIN, stateHome);
    host.browser.send(HELLO);
    host.browser.send({ type: 'daemon.locate', id: 'before', start: false });
    expect(await host.browser.next((m) => m.type === 'daemon.location' && m.id === 'before')).toEqual({
      type: 'daemon.location',
      id: 'before',
      running: false,
      port: null,
      started: false,
    });

    host.browser.send({ type: 'pairing.request', id: 'pair' });
    const code = await host.browser.next((m) => m.type === 'pairing.code' || m.type === 'error', 20_000);
    if (code.type !== 'pairing.code') throw new Error(JSON.stringify(code));
    // The folder watch tells the browser the daemon appeared, without being asked.
    expect(await host.browser.next((m) => m.type === 'daemon.location' && m.id === 'watch')).toEqual({
      type: 'daemon.location',
      id: 'watch',
      running: true,
      port: code.port,
      started: false,
    });

    const pid = daemonPidOf(stateHome);
    expect(pid).not.toBeNull();
    if (pid === null) return;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(group)).toBe(pid);

    const res = await fetch(`http://127.0.0.1:${code.port}/pair/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
      body: JSON.stringify({ code: code.code }),
    });
    expect(res.status).toBe(200);
    expect(PairClaimResponseSchema.parse(await res.json())).toMatchObject({ ok: true });

    host.child.stdin.end();
    expect((await exitWithin(host, 10_000)).code).toBe(0);
    // The browser closing its port does not take the daemon down.
    expect(isOurDaemon(pid, stateHome)).toBe(true);
    expect(hostLog(stateHome)).toContain('"event":"pairing_issued"');
    expect(hostLog(stateHome)).not.toContain(code.code);

    // The next host (the browser restarted) finds the same daemon without starting one.
    const again = realHost(OUR_ORIGIN, stateHome);
    again.browser.send(HELLO);
    again.browser.send({ type: 'daemon.locate', id: 'after', start: true });
    expect(await again.browser.next((m) => m.type === 'daemon.location')).toEqual({
      type: 'daemon.location',
      id: 'after',
      running: true,
      port: code.port,
      started: false,
    });
    again.child.stdin.end();
    await exitWithin(again, 10_000);
  }, 40_000);

  it("pairs by itself while another user's wrong codes hold /pair/claim shut, and a typed code stays throttled", async () => {
    const stateHome = home();
    const host = realHost(OUR_ORIGIN, stateHome);
    host.browser.send(HELLO);
    host.browser.send({ type: 'daemon.locate', id: 'start', start: true });
    const located = await host.browser.next((m) => m.type === 'daemon.location' && m.id === 'start', 20_000);
    if (located.type !== 'daemon.location' || located.port === null) throw new Error(JSON.stringify(located));
    const claim = async (code: string) => {
      const res = await fetch(`http://127.0.0.1:${located.port}/pair/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
        body: JSON.stringify({ code }),
      });
      return { status: res.status, body: PairClaimResponseSchema.parse(await res.json()) };
    };

    // A stranger on this computer sends wrong codes until the throttle is shut.
    for (let i = 0; i < 5; i++) expect((await claim('WRNG-CODE')).status).toBe(401);
    expect(await claim('STIL-LWNG')).toMatchObject({ status: 429 });

    host.browser.send({ type: 'pairing.request', id: 'pair' });
    const code = await host.browser.next((m) => m.type === 'pairing.code' || m.type === 'error', 20_000);
    if (code.type !== 'pairing.code') throw new Error(JSON.stringify(code));
    expect(code.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const paired = await claim(code.code);
    expect(paired.status).toBe(200);
    expect(paired.body).toMatchObject({ ok: true });
    expect(hostLog(stateHome)).not.toContain(code.code);

    // The code a person would type (`bproxy pair`) is still held by the throttle.
    const client = new DaemonClient({ env: { HOME: stateHome, BPROXY_HOME: stateHome } });
    const typed = await client.call('pairing.issue', {});
    client.close();
    if (!typed.ok) throw new Error(typed.error.message);
    const refused = await claim((typed.data as { code: string }).code);
    expect(refused).toMatchObject({
      status: 429,
      body: { ok: false, error: { code: 'PAIRING_RATE_LIMITED' } },
    });

    host.child.stdin.end();
    await exitWithin(host, 10_000);
  }, 40_000);
});
