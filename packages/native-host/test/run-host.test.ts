/**
 * The host loop over in-memory pipes: hello and the protocol version, validation that names the field
 * and goes on, the 64 MiB cap, garbage and torn frames, the daemon locator and pairing through the
 * daemon access, the hand-off to the agent and terminal handlers, chunking of large replies, and the
 * caller-origin gate before stdin is touched. The real process over real pipes: host-process.test.ts.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PassThrough } from 'node:stream';
import {
  BPROXY_VERSION,
  DEFAULT_EXTENSION_ID,
  NATIVE_MAX_FROM_BROWSER,
  NATIVE_MAX_TO_BROWSER,
} from '@bproxy/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonAccess, DaemonState } from '../src/daemon/daemon-access';
import { HostFailure } from '../src/failure';
import { frameHeader } from '../src/framing';
import type { AgentMessage, HandlerFactory, TerminalMessage } from '../src/handlers';
import { runHost, type RunHostOptions } from '../src/run-host';
import type { LogFields } from '../src/host-log';
import { HELLO, MemoryLog, browserEnd, type BrowserEnd } from './helpers/port';

const ORIGIN = `chrome-extension://${DEFAULT_EXTENSION_ID}/`;

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-host-'));
  homes.push(home);
  return home;
}

function fakeDaemon(overrides: Partial<DaemonAccess> = {}): DaemonAccess {
  return {
    current: () => ({ running: false, port: null }),
    locate: (start) =>
      Promise.resolve(
        start ? { running: true, port: 9615, started: true } : { running: false, port: null, started: false },
      ),
    issuePairing: () =>
      Promise.resolve({ port: 9615, code: 'ABCD-EFGH', expiresAt: 1_900_000_000_000, started: false }),
    ...overrides,
  };
}

interface Running {
  readonly browser: BrowserEnd;
  readonly log: MemoryLog;
  readonly stdin: PassThrough;
  readonly exit: Promise<number>;
}

function start(options: Partial<RunHostOptions> = {}): Running {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const log = new MemoryLog();
  const exit = runHost({
    argv: [ORIGIN],
    stdin,
    stdout,
    env: { BPROXY_HOME: tempHome() },
    log,
    daemonScript: join(tmpdir(), 'no-daemon-here.mjs'),
    daemon: fakeDaemon(),
    watch: false,
    ...options,
  });
  return { browser: browserEnd(stdin, stdout), log, stdin, exit };
}

async function welcomed(options: Partial<RunHostOptions> = {}): Promise<Running> {
  const host = start(options);
  host.browser.send(HELLO);
  await host.browser.next((m) => m.type === 'welcome');
  return host;
}

describe('hello', () => {
  it('is answered with welcome in the native protocol version and the host version', async () => {
    const host = start();
    host.browser.send(HELLO);
    expect(await host.browser.next()).toEqual({
      type: 'welcome',
      protocolVersion: 1,
      hostVersion: expect.any(String),
    });
    host.stdin.end();
    expect(await host.exit).toBe(0);
  });

  it('in another protocol version gets a clear error, then the host exits non-zero', async () => {
    const host = start();
    host.browser.send({ ...HELLO, protocolVersion: 2 });
    const error = await host.browser.next();
    expect(error).toMatchObject({ type: 'error', code: 'PROTOCOL_MISMATCH' });
    expect(error.type === 'error' && error.message).toContain('native protocol 2 and this host 1');
    expect(await host.exit).toBe(1);
  });

  it('from an extension of a version that does not work with this host is refused, naming the older part and its fix', async () => {
    const older = start();
    older.browser.send({ ...HELLO, extensionVersion: '0.0.1' });
    expect(await older.browser.next()).toEqual({
      type: 'error',
      code: 'VERSION_MISMATCH',
      message: `the extension is version 0.0.1 and the native host ${BPROXY_VERSION}: they do not work together, and the extension is the older one — update the extension: reload it in chrome://extensions (the unpacked folder \`bproxy setup\` names), or update it from the store`,
    });
    expect(await older.exit).toBe(1);
    const newer = start();
    newer.browser.send({ ...HELLO, extensionVersion: '99.0.0' });
    const error = await newer.browser.next();
    expect(error.type === 'error' && error.message).toContain(
      'the native host is the older one — run `bproxy setup`',
    );
    expect(await newer.exit).toBe(1);
    // Another patch release of the same minor works.
    const [major = '0', minor = '0'] = BPROXY_VERSION.split('.');
    const patch = start();
    patch.browser.send({ ...HELLO, extensionVersion: `${major}.${minor}.999` });
    expect(await patch.browser.next()).toMatchObject({ type: 'welcome' });
    patch.stdin.end();
    expect(await patch.exit).toBe(0);
  });

  it('must come first: anything before it is refused, and the host waits for it', async () => {
    const host = start();
    host.browser.send({ type: 'daemon.locate', id: 'l1', start: false });
    expect(await host.browser.next()).toEqual({
      type: 'error',
      id: 'l1',
      code: 'BAD_REQUEST',
      message: 'the first message on the port must be hello',
    });
    host.browser.send(HELLO);
    expect(await host.browser.next()).toMatchObject({ type: 'welcome' });
    host.stdin.end();
    await host.exit;
  });
});

describe('a message that fails the schema', () => {
  it.each([
    [{ type: 'daemon.locate', id: 'l2', start: 'yes' }, 'start: expected boolean'],
    [{ type: 'pairing.request', id: 'p1', extra: 1 }, 'unknown field(s) "extra"'],
    [{ type: 'no.such.type', id: 'x1' }, 'type:'],
    [{ type: 'user', chatId: 'c1', text: '', session: 'abcdef' }, 'text:'],
  ])('%j gets a BAD_REQUEST naming the field, and the host goes on', async (message, naming) => {
    const host = await welcomed();
    host.browser.send(message);
    const error = await host.browser.next();
    expect(error).toMatchObject({ type: 'error', code: 'BAD_REQUEST' });
    expect(error.type === 'error' && error.message).toContain(naming);
    host.browser.send({ type: 'daemon.locate', id: 'after', start: false });
    expect(await host.browser.next()).toMatchObject({ type: 'daemon.location', id: 'after' });
    host.stdin.end();
    expect(await host.exit).toBe(0);
  });
});

describe('a message whose handling throws', () => {
  it('is answered INTERNAL_ERROR, logged, and the host serves the next', async () => {
    // A log that fails on one kind of line makes the port's handler throw mid-message, as a bug or
    // input it could not survive would.
    class ThrowingLog extends MemoryLog {
      override warn(event: string, fields: LogFields = {}): void {
        if (event === 'bad_message') throw new RangeError('Maximum call stack size exceeded');
        super.warn(event, fields);
      }
    }
    const log = new ThrowingLog();
    const host = await welcomed({ log });
    host.browser.send({ type: 'daemon.locate', id: 'l2', start: 'yes' });
    expect(await host.browser.next()).toMatchObject({ type: 'error', code: 'INTERNAL_ERROR' });
    host.browser.send({ type: 'daemon.locate', id: 'after', start: false });
    expect(await host.browser.next()).toMatchObject({ type: 'daemon.location', id: 'after' });
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'message_failed',
        fields: expect.objectContaining({ name: 'RangeError' }),
      }),
    );
    host.stdin.end();
    expect(await host.exit).toBe(0);
  });
});

describe('frames the host cannot take', () => {
  it('refuses a message over 64 MiB with PAYLOAD_TOO_LARGE as soon as its header arrives, skips it, and goes on', async () => {
    const host = await welcomed();
    const length = NATIVE_MAX_FROM_BROWSER + 1;
    host.browser.sendRaw(frameHeader(length));
    const error = await host.browser.next();
    expect(error).toMatchObject({ type: 'error', code: 'PAYLOAD_TOO_LARGE' });
    expect(error.type === 'error' && error.message).toContain(`${length} bytes`);
    // The body streams by in 1 MiB pieces and is dropped; the message after it is read normally.
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    for (let sent = 0; sent < length; sent += piece.length)
      host.browser.sendRaw(piece.subarray(0, Math.min(piece.length, length - sent)));
    host.browser.send({ type: 'daemon.locate', id: 'after', start: false });
    expect(await host.browser.next()).toMatchObject({ type: 'daemon.location', id: 'after' });
    expect(host.log.lines).toContainEqual({
      level: 'warn',
      event: 'oversize_message',
      fields: { bytes: length, max: NATIVE_MAX_FROM_BROWSER },
    });
    host.stdin.end();
    expect(await host.exit).toBe(0);
  });

  it('ends the host cleanly on a frame that is not JSON, with a log line', async () => {
    const host = await welcomed();
    host.browser.sendRaw(Buffer.concat([frameHeader(5), Buffer.from('{oops')]));
    expect(await host.exit).toBe(1);
    expect(host.log.lines).toContainEqual({
      level: 'error',
      event: 'garbage',
      fields: { reason: 'a frame of 5 bytes that is not JSON' },
    });
  });

  it('ends the host with exit 0 and logs a torn frame when stdin ends mid-frame', async () => {
    const host = await welcomed();
    host.browser.sendRaw(Buffer.concat([frameHeader(100), Buffer.from('{"type":')]));
    host.stdin.end();
    expect(await host.exit).toBe(0);
    expect(host.log.lines).toContainEqual({
      level: 'warn',
      event: 'torn_frame',
      fields: { detail: '8 of 100 body bytes' },
    });
  });
});

describe('the daemon locator and pairing', () => {
  it('locates without starting unless asked, and pairs with a code that reaches the browser and not the log', async () => {
    const starts: boolean[] = [];
    const host = await welcomed({
      daemon: fakeDaemon({
        locate: (startIt) => {
          starts.push(startIt);
          return Promise.resolve({ running: true, port: 4321, started: startIt });
        },
        issuePairing: () =>
          Promise.resolve({ port: 4321, code: 'QWER-TYUI', expiresAt: 1_900_000_000_000, started: true }),
      }),
    });
    host.browser.send({ type: 'daemon.locate', id: 'a', start: false });
    host.browser.send({ type: 'daemon.locate', id: 'b', start: true });
    host.browser.send({ type: 'pairing.request', id: 'p' });
    expect(await host.browser.next((m) => 'id' in m && m.id === 'a')).toEqual({
      type: 'daemon.location',
      id: 'a',
      running: true,
      port: 4321,
      started: false,
    });
    expect(await host.browser.next((m) => 'id' in m && m.id === 'b')).toMatchObject({ started: true });
    expect(await host.browser.next((m) => m.type === 'pairing.code')).toEqual({
      type: 'pairing.code',
      id: 'p',
      port: 4321,
      code: 'QWER-TYUI',
      expiresAt: 1_900_000_000_000,
    });
    expect(starts).toEqual([false, true]);
    expect(host.log.text()).not.toContain('QWER-TYUI');
    host.stdin.end();
    await host.exit;
  });

  it('answers a daemon that cannot be found or started with an error tied to the request', async () => {
    const host = await welcomed({
      daemon: fakeDaemon({
        issuePairing: () =>
          Promise.reject(new HostFailure('NO_DAEMON', 'cannot start the bproxy daemon: no bundle')),
      }),
    });
    host.browser.send({ type: 'pairing.request', id: 'p2' });
    expect(await host.browser.next()).toEqual({
      type: 'error',
      id: 'p2',
      code: 'NO_DAEMON',
      message: 'cannot start the bproxy daemon: no bundle',
    });
    host.stdin.end();
    await host.exit;
  });

  it('pushes daemon.location with id "watch" when the state files change, once the browser said hello', async () => {
    const home = tempHome();
    let state: DaemonState = { running: false, port: null };
    const host = start({
      env: { BPROXY_HOME: home },
      daemon: fakeDaemon({ current: () => state }),
      watch: { pollMs: 60_000 },
    });
    host.browser.send(HELLO);
    await host.browser.next((m) => m.type === 'welcome');
    state = { running: true, port: 5555 };
    writeFileSync(join(home, 'port'), '5555\n');
    expect(await host.browser.next()).toEqual({
      type: 'daemon.location',
      id: 'watch',
      running: true,
      port: 5555,
      started: false,
    });
    state = { running: false, port: null };
    rmSync(join(home, 'port'));
    expect(await host.browser.next()).toEqual({
      type: 'daemon.location',
      id: 'watch',
      running: false,
      port: null,
      started: false,
    });
    host.stdin.end();
    await host.exit;
  });
});

describe('chats and terminals', () => {
  it.each([
    [{ type: 'user', chatId: 'c1', text: 'hi', session: 'abcdef' }, { chatId: 'c1' }],
    [{ type: 'settings.get', id: 's1' }, { id: 's1' }],
    [{ type: 'pty.open', termId: 't1', cols: 80, rows: 24 }, { termId: 't1' }],
  ])('%j gets UNSUPPORTED_ACTION while no handler is wired in', async (message, ties) => {
    const host = await welcomed();
    host.browser.send(message);
    expect(await host.browser.next()).toMatchObject({ type: 'error', code: 'UNSUPPORTED_ACTION', ...ties });
    host.stdin.end();
    await host.exit;
  });

  it('go to the injected handlers, created once, and closed when the port closes', async () => {
    const seen: string[] = [];
    let created = 0;
    let closed = 0;
    const agent: HandlerFactory<AgentMessage> = () => {
      created++;
      return {
        handle(message, emit) {
          seen.push(message.type);
          if (message.type === 'user') {
            emit({ type: 'delta', chatId: message.chatId, text: `echo ${message.text}` });
            emit({ type: 'turn_done', chatId: message.chatId, stopped: false });
          }
        },
        close: () => {
          closed++;
          return Promise.resolve();
        },
      };
    };
    const terminal: HandlerFactory<TerminalMessage> = () => ({
      handle: (message, emit) =>
        emit({ type: 'pty.exit', termId: message.termId, exitCode: 0, signal: null }),
      close: () => Promise.resolve(),
    });
    const host = await welcomed({ agent, terminal });
    host.browser.send({ type: 'user', chatId: 'c1', text: 'one', session: 'abcdef' });
    host.browser.send({ type: 'stop', chatId: 'c1' });
    host.browser.send({ type: 'pty.close', termId: 't9' });
    expect(await host.browser.next()).toEqual({ type: 'delta', chatId: 'c1', text: 'echo one' });
    expect(await host.browser.next((m) => m.type === 'turn_done')).toMatchObject({ chatId: 'c1' });
    expect(await host.browser.next((m) => m.type === 'pty.exit')).toMatchObject({ termId: 't9' });
    host.stdin.end();
    expect(await host.exit).toBe(0);
    expect(seen).toEqual(['user', 'stop']);
    expect([created, closed]).toEqual([1, 1]);
  });

  it('report a handler that throws as INTERNAL_ERROR tied to the chat, and the host goes on', async () => {
    const host = await welcomed({
      agent: () => ({
        handle: () => Promise.reject(new Error('model exploded')),
        close: () => Promise.resolve(),
      }),
    });
    host.browser.send({ type: 'user', chatId: 'c2', text: 'hi', session: 'abcdef' });
    expect(await host.browser.next()).toMatchObject({ type: 'error', chatId: 'c2', code: 'INTERNAL_ERROR' });
    host.browser.send({ type: 'daemon.locate', id: 'ok', start: false });
    expect(await host.browser.next()).toMatchObject({ type: 'daemon.location', id: 'ok' });
    host.stdin.end();
    await host.exit;
  });

  it('send a 3 MiB reply as chunks under 1 MiB that reassemble into exactly the message', async () => {
    const entry = {
      role: 'assistant' as const,
      text: 'é€😀 page text '.repeat(6_666),
      at: 1,
    };
    const transcript = {
      type: 'chat.transcript' as const,
      id: 'h1',
      chatId: 'c3',
      entries: Array.from({ length: 28 }, () => entry),
      running: false,
    };
    expect(Buffer.byteLength(JSON.stringify(transcript))).toBeGreaterThan(3 * 1024 * 1024);
    const host = await welcomed({
      agent: () => ({ handle: (_m, emit) => emit(transcript), close: () => Promise.resolve() }),
    });
    host.browser.send({ type: 'chat.history', id: 'h1', chatId: 'c3' });
    expect(await host.browser.next()).toEqual(transcript);
    expect(host.browser.frameSizes.length).toBeGreaterThan(4);
    for (const size of host.browser.frameSizes) expect(size).toBeLessThanOrEqual(NATIVE_MAX_TO_BROWSER);
    expect(host.browser.violations).toEqual([]);
    host.stdin.end();
    await host.exit;
  });
});

describe('stopping', () => {
  it('on a signal closes the handlers and exits 0', async () => {
    const stop = new AbortController();
    let closed = false;
    const host = await welcomed({
      signal: stop.signal,
      agent: () => ({
        handle: () => undefined,
        close: () => {
          closed = true;
          return Promise.resolve();
        },
      }),
    });
    host.browser.send({ type: 'settings.get', id: 's' });
    stop.abort('SIGTERM');
    expect(await host.exit).toBe(0);
    expect(closed).toBe(true);
  });
});

describe('the caller-origin gate', () => {
  /** A stdin that records any use: the host must not read, listen or even pause it. */
  function untouchable(): { stream: Readable; touched: string[] } {
    const touched: string[] = [];
    const stream = new Proxy(new PassThrough(), {
      get(target, property, receiver) {
        if (typeof property === 'string') touched.push(property);
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    return { stream, touched };
  }

  it.each([
    ['another extension', ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/']],
    ['our id without the trailing slash', [`chrome-extension://${DEFAULT_EXTENSION_ID}`]],
    ['our id in upper case', [`CHROME-EXTENSION://${DEFAULT_EXTENSION_ID.toUpperCase()}/`]],
    ['a web page', ['https://example.com/']],
    ['no argument at all', []],
  ])('refuses %s before touching stdin, exiting non-zero', async (_what, argv) => {
    const stdin = untouchable();
    const log = new MemoryLog();
    const code = await runHost({
      argv,
      stdin: stdin.stream,
      stdout: new PassThrough(),
      env: { BPROXY_HOME: tempHome() },
      log,
      daemonScript: 'unused',
      daemon: fakeDaemon(),
    });
    expect(code).toBe(1);
    expect(stdin.touched).toEqual([]);
    expect(log.events()).toEqual(['caller_refused']);
  });

  it('accepts an extension id trusted in BPROXY_HOME/extensions.json, with Windows arguments after it', async () => {
    const id = 'abcdefghijklmnopabcdefghijklmnop';
    const home = tempHome();
    writeFileSync(join(home, 'extensions.json'), JSON.stringify({ ids: [id] }), { mode: 0o600 });
    const host = start({
      argv: [`chrome-extension://${id}/`, '--parent-window=0'],
      env: { BPROXY_HOME: home },
    });
    host.browser.send(HELLO);
    expect(await host.browser.next()).toMatchObject({ type: 'welcome' });
    host.stdin.end();
    expect(await host.exit).toBe(0);
  });

  it('refuses every caller, ours included, when extensions.json is open to others', async () => {
    const home = tempHome();
    const file = join(home, 'extensions.json');
    writeFileSync(file, JSON.stringify({ ids: ['abcdefghijklmnopabcdefghijklmnop'] }), { mode: 0o600 });
    chmodSync(file, 0o644);
    const stdin = untouchable();
    const log = new MemoryLog();
    const code = await runHost({
      argv: [`chrome-extension://${DEFAULT_EXTENSION_ID}/`],
      stdin: stdin.stream,
      stdout: new PassThrough(),
      env: { BPROXY_HOME: home },
      log,
      daemonScript: 'unused',
      daemon: fakeDaemon(),
    });
    expect(code).toBe(1);
    expect(stdin.touched).toEqual([]);
    expect(log.events()).toEqual(['caller_refused']);
  });
});
