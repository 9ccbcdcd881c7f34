/**
 * The worker's relay between side panels and the native host, with fake ports on both sides: what a
 * panel sends is validated before it reaches the host, only chat, settings and terminal messages pass,
 * a chat's stream reaches the panels that watch that chat and no other, a request's answer goes back
 * to the panel that asked under its own id (its local failures too), a message the host cannot take
 * comes back as an error tied to its chat, and a panel whose port fails is forgotten entirely.
 */
import { describe, expect, it } from 'vitest';
import type { ExtensionToHost, HostToExtension } from '@bproxy/protocol';
import type { PortLike } from '../../../src/chrome-api';
import { PanelRelay } from '../../../src/background/host/panel-relay';
import { WorkerLog } from '../../../src/background/log';
import { FakeEvent, fakeChrome } from '../../helpers/fakes';

/** The tab an agent drives in these tests. */
const DRIVEN_TAB = 42;

class FakePort implements PortLike {
  readonly name = 'panel';
  readonly received: unknown[] = [];
  readonly onMessage = new FakeEvent<(message: unknown) => void>();
  readonly onDisconnect = new FakeEvent<() => void>();
  constructor(
    readonly sender: {
      id: string;
      url?: string;
      tab?: { id: number; windowId: number; pinned: boolean; active: boolean };
    },
  ) {}
  postMessage(message: unknown): void {
    this.received.push(message);
  }
  disconnect(): void {}
  /** What the host sent this panel. */
  host(): HostToExtension[] {
    return this.received
      .filter((m): m is { type: 'host'; message: HostToExtension } => (m as { type: string }).type === 'host')
      .map((m) => m.message);
  }
}

interface HostBehaviour {
  connected?: boolean;
  /** What the host answers a request with (default: a transcript under the host's own id). */
  answer?: () => Promise<HostToExtension>;
  /** Posting a message throws, as on a port that just disconnected. */
  sendThrows?: boolean;
  /** The daemon connection stopped for this reason (null: connected). */
  stopReason?: string | null;
  /** The host failed with this error (null: as `connected` says). */
  hostError?: string | null;
}

function setup({
  connected = true,
  answer,
  sendThrows = false,
  stopReason = null,
  hostError = null,
}: HostBehaviour = {}) {
  const chrome = fakeChrome();
  const hostListeners: ((message: HostToExtension) => void)[] = [];
  const sent: ExtensionToHost[] = [];
  const requested: unknown[] = [];
  const unlistened: number[] = [];
  const host = {
    onMessage: (listener: (message: HostToExtension) => void) => {
      hostListeners.push(listener);
      return () => undefined;
    },
    send: (message: ExtensionToHost) => {
      if (sendThrows) throw new Error('Attempting to use a disconnected port object');
      if (!connected) return false;
      sent.push(message);
      return true;
    },
    request: async (message: object, id?: string): Promise<HostToExtension> => {
      requested.push(id === undefined ? message : { ...message, id });
      if (answer) return answer();
      return { type: 'chat.transcript', id: 'x9', chatId: 'tab-1', entries: [], running: false };
    },
    status: () => ({
      state:
        hostError !== null ? ('failed' as const) : connected ? ('connected' as const) : ('missing' as const),
      hostVersion: null,
      lastError: hostError,
    }),
    ensure: async () => connected,
    get connected() {
      return connected;
    },
  };
  const relay = new PanelRelay({
    chrome,
    log: new WorkerLog(100, Date.now, false),
    connection: {
      userRequest: async () => ({ ok: false, reason: 'not in this test' }),
      status: () =>
        stopReason === null
          ? { state: 'connected' as const, stopReason: null }
          : { state: 'stopped' as const, stopReason },
    },
    host,
    view: { listen: () => () => void unlistened.push(1) },
    share: async () => ({ ok: false, reason: 'not in this test' }),
    startDaemon: async () => ({ ok: false, reason: 'not in this test' }),
    isDriven: (tabId) => tabId === DRIVEN_TAB,
  });
  relay.install();
  const connect = (port: PortLike) =>
    (chrome.runtime.onConnect as FakeEvent<(port: PortLike) => void>).fire(port);
  const open = () => {
    const port = new FakePort({
      id: chrome.runtime.id,
      url: `chrome-extension://${chrome.runtime.id}/panel.html`,
    });
    connect(port);
    return port;
  };
  const fromHost = (message: HostToExtension) => hostListeners.forEach((l) => l(message));
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { open, connect, fromHost, sent, requested, unlistened, flush };
}

describe('the panel relay', () => {
  it.each([
    ['daemon', { stopReason: 'the daemon is the older one — restart the daemon' }, 'down'],
    ['host', { hostError: 'the native host is the older one — run `bproxy setup`' }, 'connected'],
  ] as const)('tells the panel why the %s stopped, so that it shows the fix', (_part, behaviour, daemon) => {
    const { open } = setup(behaviour);
    const panel = open();
    expect(panel.received[0]).toMatchObject({
      type: 'status',
      daemon,
      problem: Object.values(behaviour)[0],
    });
  });

  it('sends a chat message on to the host, and refuses malformed or non-panel messages', async () => {
    const { open, sent, flush } = setup();
    const panel = open();
    panel.onMessage.fire({
      type: 'host',
      message: { type: 'user', chatId: 'tab-1', text: 'hi', session: 'm4q7z2' },
    });
    panel.onMessage.fire({
      type: 'host',
      message: { type: 'user', chatId: 'tab-1', text: '', session: 'm4q7z2' },
    });
    panel.onMessage.fire({
      type: 'host',
      message: { type: 'user', chatId: 'tab 1', text: 'hi', session: 'm4q7z2' },
    });
    panel.onMessage.fire({
      type: 'host',
      message: { type: 'user', chatId: 'tab-1', text: 'hi', session: 'm4q7z2', html: '<b>' },
    });
    panel.onMessage.fire({ type: 'host', message: { type: 'pairing.request', id: 'p1' } });
    panel.onMessage.fire({ type: 'chat.watch', chatIds: ['<script>'] });
    await flush();
    expect(sent).toEqual([{ type: 'user', chatId: 'tab-1', text: 'hi', session: 'm4q7z2' }]);
  });

  it("routes a chat's stream to the panels watching that chat only", async () => {
    const { open, fromHost } = setup();
    const one = open();
    const two = open();
    one.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-1'] });
    two.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-2'] });
    fromHost({ type: 'delta', chatId: 'tab-1', text: 'for one' });
    fromHost({ type: 'tool_call', chatId: 'tab-2', callId: 'c1', name: 'click', input: {} });
    fromHost({ type: 'error', chatId: 'tab-2', code: 'CHAT_QUEUE_FULL', message: 'full' });
    fromHost({ type: 'chat.queue', chatId: 'tab-3', running: true, queued: 0 });
    expect(one.host()).toEqual([{ type: 'delta', chatId: 'tab-1', text: 'for one' }]);
    expect(two.host().map((m) => m.type)).toEqual(['tool_call', 'error']);

    // Following the tab in front: the panel now watches another chat.
    one.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-3'] });
    fromHost({ type: 'delta', chatId: 'tab-1', text: 'missed' });
    fromHost({ type: 'turn_done', chatId: 'tab-3', stopped: false });
    expect(one.host().map((m) => m.type)).toEqual(['delta', 'turn_done']);

    one.onDisconnect.fire();
    fromHost({ type: 'turn_done', chatId: 'tab-3', stopped: true });
    expect(one.host()).toHaveLength(2);
  });

  it('answers a history request to the panel that asked, under its id', async () => {
    const { open, requested, flush } = setup();
    const asker = open();
    const other = open();
    other.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-1'] });
    asker.onMessage.fire({ type: 'host', message: { type: 'chat.history', id: 'h7', chatId: 'tab-1' } });
    await flush();
    // The panel's id goes on to the host as it is, not a new one.
    expect(requested).toEqual([{ type: 'chat.history', chatId: 'tab-1', id: 'h7' }]);
    expect(asker.host()).toEqual([
      { type: 'chat.transcript', id: 'h7', chatId: 'tab-1', entries: [], running: false },
    ]);
    expect(other.host()).toEqual([]);
  });

  it('gives the chat an error saying what to run when the native host is missing', async () => {
    const { open, flush, sent } = setup({ connected: false });
    const panel = open();
    panel.onMessage.fire({ type: 'host', message: { type: 'stop', chatId: 'tab-1' } });
    await flush();
    expect(sent).toEqual([]);
    expect(panel.host()).toEqual([
      expect.objectContaining({
        type: 'error',
        chatId: 'tab-1',
        code: 'NO_NATIVE_HOST',
        message: expect.stringMatching(/bproxy setup/),
      }),
    ]);
  });

  it("answers under the panel's id when the host fails locally (not available, went away)", async () => {
    const { open, flush } = setup({
      answer: async () => ({
        type: 'error',
        code: 'NO_NATIVE_HOST',
        message: 'the native host went away: exited',
      }),
    });
    const panel = open();
    panel.onMessage.fire({ type: 'host', message: { type: 'settings.get', id: 's3' } });
    await flush();
    expect(panel.host()).toEqual([
      { type: 'error', id: 's3', code: 'NO_NATIVE_HOST', message: 'the native host went away: exited' },
    ]);
  });

  it("answers under the panel's id when the host's request throws", async () => {
    const { open, flush } = setup({
      answer: async () => {
        throw new Error('Attempting to use a disconnected port object');
      },
    });
    const panel = open();
    panel.onMessage.fire({ type: 'host', message: { type: 'chat.history', id: 'h1', chatId: 'tab-1' } });
    await flush();
    expect(panel.host()).toEqual([
      expect.objectContaining({
        type: 'error',
        id: 'h1',
        code: 'NO_NATIVE_HOST',
        message: expect.stringMatching(/disconnected port/),
      }),
    ]);
  });

  it('gives the chat an error when the host port drops as its message is sent', async () => {
    const { open, flush } = setup({ sendThrows: true });
    const panel = open();
    panel.onMessage.fire({
      type: 'host',
      message: { type: 'user', chatId: 'tab-1', text: 'hi', session: 'm4q7z2' },
    });
    await flush();
    expect(panel.host()).toEqual([
      expect.objectContaining({ type: 'error', chatId: 'tab-1', code: 'NO_NATIVE_HOST' }),
    ]);
  });

  it('forgets a panel whose port fails: no more chat stream, view listener gone, its terminals detached', async () => {
    const { open, fromHost, sent, unlistened, flush } = setup();
    const broken = open();
    const healthy = open();
    broken.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-1'] });
    healthy.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-1'] });
    broken.onMessage.fire({
      type: 'host',
      message: { type: 'pty.open', termId: 'term-1a', cols: 80, rows: 24 },
    });
    await flush();
    sent.length = 0;
    let posts = 0;
    broken.postMessage = () => {
      posts++;
      throw new Error('Attempting to use a disconnected port object');
    };
    fromHost({ type: 'pty.exit', termId: 'term-1a', exitCode: 0, signal: null });
    expect(posts).toBe(1);
    expect(unlistened).toEqual([1]);
    expect(sent).toEqual([{ type: 'pty.detach', termId: 'term-1a' }]);
    fromHost({ type: 'delta', chatId: 'tab-1', text: 'still here' });
    expect(posts).toBe(1);
    expect(healthy.host().map((m) => m.type)).toEqual(['delta']);
    // The disconnect event that follows changes nothing more.
    broken.onDisconnect.fire();
    expect(unlistened).toEqual([1]);
  });

  it("routes a terminal's output, exit and errors to the panels showing it only", async () => {
    const { open, fromHost, flush } = setup();
    const shows = open();
    const other = open();
    shows.onMessage.fire({
      type: 'host',
      message: { type: 'pty.open', termId: 'term-1a', cols: 80, rows: 24 },
    });
    other.onMessage.fire({
      type: 'host',
      message: { type: 'pty.open', termId: 'term-2b', cols: 80, rows: 24 },
    });
    await flush();
    fromHost({ type: 'pty.output', termId: 'term-1a', data: 'secret typed here' });
    fromHost({ type: 'error', termId: 'term-1a', code: 'BAD_REQUEST', message: 'no' });
    fromHost({ type: 'pty.exit', termId: 'term-1a', exitCode: 0, signal: null });
    expect(shows.host().map((m) => m.type)).toEqual(['pty.output', 'error', 'pty.exit']);
    expect(other.host()).toEqual([]);
  });

  it('disconnects a port from another extension, which then hears no chat', async () => {
    const { connect, fromHost } = setup();
    const other = 'abcdefghijklmnopabcdefghijklmnop';
    // Its own panel page, at the same path as ours.
    const stranger = new FakePort({ id: other, url: `chrome-extension://${other}/panel.html` });
    let disconnected = false;
    stranger.disconnect = () => void (disconnected = true);
    connect(stranger);
    stranger.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-1'] });
    fromHost({ type: 'delta', chatId: 'tab-1', text: 'x' });
    expect(disconnected).toBe(true);
    expect(stranger.received).toEqual([]);
  });

  it('disconnects a content script of a driven page, though it carries our extension id', () => {
    const { connect, fromHost } = setup();
    for (const url of ['https://evil.example/panel.html', undefined, 'chrome-extension://x/panel.html']) {
      const script = new FakePort({ id: fakeChrome().runtime.id, ...(url === undefined ? {} : { url }) });
      let disconnected = false;
      script.disconnect = () => void (disconnected = true);
      connect(script);
      script.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-1'] });
      fromHost({ type: 'delta', chatId: 'tab-1', text: 'x' });
      expect(disconnected, String(url)).toBe(true);
      expect(script.received).toEqual([]);
    }
  });

  it('disconnects our own panel page loaded in a tab an agent drives, and keeps one in a tab of the user', () => {
    const { connect, fromHost } = setup();
    const url = `chrome-extension://${fakeChrome().runtime.id}/panel.html?tab=7`;
    const tab = (id: number) => ({ id, windowId: 1, pinned: false, active: true });
    const inDriven = new FakePort({ id: fakeChrome().runtime.id, url, tab: tab(DRIVEN_TAB) });
    let disconnected = false;
    inDriven.disconnect = () => void (disconnected = true);
    connect(inDriven);
    inDriven.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-7'] });
    fromHost({ type: 'delta', chatId: 'tab-7', text: 'x' });
    expect(disconnected).toBe(true);
    expect(inDriven.received).toEqual([]);

    const inUsers = new FakePort({ id: fakeChrome().runtime.id, url, tab: tab(3) });
    connect(inUsers);
    inUsers.onMessage.fire({ type: 'chat.watch', chatIds: ['tab-7'] });
    fromHost({ type: 'delta', chatId: 'tab-7', text: 'x' });
    expect(inUsers.host()).toEqual([{ type: 'delta', chatId: 'tab-7', text: 'x' }]);
  });
});
