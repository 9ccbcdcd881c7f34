/**
 * Fakes for the extension's unit tests: an in-memory chrome.storage area, a ChromeApi whose events can
 * be fired by the test, and a scripted socket that records what the worker sends.
 */
import type { ChromeApi, ChromeEvent, StorageArea } from '../../src/chrome-api';
import type { SocketFactory, SocketLike } from '../../src/background/daemon/socket';

export class MemoryStorage implements StorageArea {
  readonly data = new Map<string, unknown>();
  writes = 0;

  async get(keys: string | string[] | null): Promise<Record<string, unknown>> {
    const wanted = keys === null ? [...this.data.keys()] : Array.isArray(keys) ? keys : [keys];
    const out: Record<string, unknown> = {};
    for (const key of wanted) if (this.data.has(key)) out[key] = structuredClone(this.data.get(key));
    return out;
  }

  async set(items: Record<string, unknown>): Promise<void> {
    this.writes += 1;
    for (const [key, value] of Object.entries(items)) this.data.set(key, structuredClone(value));
  }

  async remove(keys: string | string[]): Promise<void> {
    for (const key of Array.isArray(keys) ? keys : [keys]) this.data.delete(key);
  }
}

export class FakeEvent<F extends (...args: never[]) => unknown> implements ChromeEvent<F> {
  readonly listeners = new Set<F>();
  addListener(listener: F): void {
    this.listeners.add(listener);
  }
  removeListener(listener: F): void {
    this.listeners.delete(listener);
  }
  fire(...args: Parameters<F>): void {
    for (const listener of [...this.listeners]) listener(...args);
  }
}

function unexpected(name: string): () => never {
  return () => {
    throw new Error(`unexpected call to chrome.${name}`);
  };
}

/** A ChromeApi with working storage and events; every other call fails unless the test replaces it. */
export function fakeChrome(): ChromeApi & { local: MemoryStorage; session: MemoryStorage } {
  const local = new MemoryStorage();
  const session = new MemoryStorage();
  return {
    local,
    session,
    runtime: {
      id: 'oajmbecmcoogehkeimcopdfcilgnicbm',
      getManifest: () => ({ version: '0.1.0' }),
      connectNative: unexpected('runtime.connectNative'),
      onConnect: new FakeEvent(),
      onStartup: new FakeEvent(),
      onInstalled: new FakeEvent(),
      onMessage: new FakeEvent(),
    },
    storage: { local, session },
    alarms: { create: () => undefined, onAlarm: new FakeEvent() },
    tabs: {
      create: unexpected('tabs.create'),
      get: unexpected('tabs.get'),
      update: unexpected('tabs.update'),
      remove: unexpected('tabs.remove'),
      goBack: unexpected('tabs.goBack'),
      goForward: unexpected('tabs.goForward'),
      reload: unexpected('tabs.reload'),
      captureVisibleTab: unexpected('tabs.captureVisibleTab'),
      onRemoved: new FakeEvent(),
      query: async () => [],
      group: unexpected('tabs.group'),
      ungroup: unexpected('tabs.ungroup'),
    },
    windows: { update: unexpected('windows.update') },
    tabGroups: {
      query: async () => [],
      onCreated: new FakeEvent(),
      onUpdated: new FakeEvent(),
      update: unexpected('tabGroups.update'),
    },
    action: {
      setBadgeText: async () => undefined,
      setBadgeBackgroundColor: async () => undefined,
      setTitle: async () => undefined,
    },
    webNavigation: {
      onBeforeNavigate: new FakeEvent(),
      onCommitted: new FakeEvent(),
      onDOMContentLoaded: new FakeEvent(),
      onCompleted: new FakeEvent(),
      onErrorOccurred: new FakeEvent(),
      onHistoryStateUpdated: new FakeEvent(),
      onReferenceFragmentUpdated: new FakeEvent(),
      onCreatedNavigationTarget: new FakeEvent(),
    },
    scripting: { executeScript: unexpected('scripting.executeScript') },
    debugger: {
      attach: unexpected('debugger.attach'),
      detach: unexpected('debugger.detach'),
      sendCommand: unexpected('debugger.sendCommand'),
      onEvent: new FakeEvent(),
      onDetach: new FakeEvent(),
    },
  };
}

export class FakeSocket implements SocketLike {
  readonly sent: unknown[] = [];
  closed: { code?: number; reason?: string } | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((data: unknown) => void) | null = null;
  onclose: ((code: number, reason: string) => void) | null = null;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number, reason?: string): void {
    this.closed = { code, reason };
  }

  /** The daemon side. */
  open(): void {
    this.onopen?.();
  }
  receive(message: unknown): void {
    this.onmessage?.(JSON.stringify(message));
  }
  serverClose(code = 1006, reason = ''): void {
    this.onclose?.(code, reason);
  }
  sentOfType(type: string): Record<string, unknown>[] {
    return this.sent.filter((m): m is Record<string, unknown> => (m as { type?: unknown }).type === type);
  }
}

export function socketRecorder(): { factory: SocketFactory; sockets: FakeSocket[]; last(): FakeSocket } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    factory: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    last() {
      const socket = sockets.at(-1);
      if (!socket) throw new Error('no socket was opened');
      return socket;
    },
  };
}

/** Lets pending promise callbacks (storage reads, microtasks) run. */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
