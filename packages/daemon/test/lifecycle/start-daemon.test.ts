import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import type { DaemonConfig } from '@bproxy/client/lifecycle';
import { FileExtensionTokenStore } from '../../src/lifecycle/extension-token-store';
import { startDaemon, type StartDeps } from '../../src/lifecycle/start-daemon';
import { createLogger } from '../../src/logs/logger';
import type { DaemonServer } from '../../src/http/server';
import type { ServerOptions } from '../../src/server-options';

let home: string;
let config: DaemonConfig;
beforeEach(() => {
  home = join(mkdtempSync(join(tmpdir(), 'bproxy-start-')), 'home');
  config = { home, port: 0, logLevel: 'silent', idleExitMs: null, debuggerIdleMs: null };
});
afterEach(() => {
  rmSync(join(home, '..'), { recursive: true, force: true });
});

interface FakeServer {
  options: ServerOptions | null;
  events: string[];
  deps: StartDeps;
}

/** A server that records what the lifecycle did, and what files existed at each step. */
/** The trusted ids the server was handed, as its gate asks for them now. */
function idsOf(options: ServerOptions | null): readonly string[] | undefined {
  const ids = options?.extensionIds;
  return typeof ids === 'function' ? ids() : ids;
}

function fakeServer(listen: () => Promise<number> = async () => 43210): FakeServer {
  const fake: FakeServer = {
    options: null,
    events: [],
    deps: { buildServer: async () => ({}) as DaemonServer, createLogger, isOurDaemon: () => false },
  };
  fake.deps.buildServer = async (options) => {
    fake.options = options;
    fake.events.push('build');
    return {
      listen: async () => {
        fake.events.push('listen');
        return listen();
      },
      issuePairingCode: () => {
        fake.events.push(`issue (port file ${existsSync(join(home, 'port')) ? 'present' : 'absent'})`);
        return { code: 'ABCD-EFGH', issuedAt: 1000, expiresAt: 301_000 };
      },
      shutdown: async () => {
        fake.events.push(`shutdown (port file ${existsSync(join(home, 'port')) ? 'present' : 'absent'})`);
      },
    } as unknown as DaemonServer;
  };
  return fake;
}

describe('startDaemon', () => {
  it('hands the server the token, the extension id and a token store, and writes pairing.json before the port', async () => {
    const fake = fakeServer();
    const daemon = await startDaemon(config, fake.deps);
    expect(daemon.port).toBe(43210);
    expect(fake.events).toEqual(['build', 'listen', 'issue (port file absent)']);
    const token = readFileSync(join(home, 'token'), 'utf8').trim();
    expect(fake.options).toMatchObject({
      port: 0,
      daemonToken: token,
      tmpRoot: join(home, 'tmp'),
    });
    expect(idsOf(fake.options)).toEqual([DEFAULT_EXTENSION_ID]);
    expect(JSON.parse(readFileSync(join(home, 'pairing.json'), 'utf8'))).toEqual({
      pairingCode: 'ABCD-EFGH',
      pairingExpiresAt: 301_000,
      issuedAt: 1000,
    });
    expect(readFileSync(join(home, 'port'), 'utf8')).toBe('43210\n');
    expect(statSync(home).mode & 0o777).toBe(0o700);
    await daemon.stop('test');
  });

  it('stop drains the server before removing its files, keeps extension-token, and is idempotent', async () => {
    const fake = fakeServer();
    const daemon = await startDaemon(config, fake.deps);
    await fake.options?.extensionTokens.set('t'.repeat(43));
    await Promise.all([daemon.stop('SIGTERM'), daemon.stop('SIGINT')]);
    expect(fake.events.filter((e) => e.startsWith('shutdown'))).toEqual(['shutdown (port file present)']);
    for (const file of ['bproxy.pid', 'port', 'token', 'pairing.json'])
      expect(existsSync(join(home, file)), file).toBe(false);
    expect(readFileSync(join(home, 'extension-token'), 'utf8')).toBe(`${'t'.repeat(43)}\n`);
  });

  it('removes pairing.json when the server reports the code consumed', async () => {
    const fake = fakeServer();
    const daemon = await startDaemon(config, fake.deps);
    fake.options?.onPairingConsumed?.();
    expect(existsSync(join(home, 'pairing.json'))).toBe(false);
    expect(existsSync(join(home, 'port'))).toBe(true);
    await daemon.stop('test');
  });

  it('hands the server every trusted extension id: the built-in ones and those of extensions.json', async () => {
    const extra = 'c'.repeat(32);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'extensions.json'), JSON.stringify({ ids: [extra] }), { mode: 0o600 });
    const fake = fakeServer();
    const daemon = await startDaemon(config, fake.deps);
    expect(idsOf(fake.options)).toEqual([DEFAULT_EXTENSION_ID, extra]);
    await daemon.stop('test');
  });

  it('a running daemon follows extensions.json: an id added or removed counts at the next request, and a file made unsafe trusts no extension until fixed', async () => {
    const added = 'c'.repeat(32);
    const file = join(home, 'extensions.json');
    const fake = fakeServer();
    const daemon = await startDaemon(config, fake.deps);
    try {
      expect(idsOf(fake.options)).toEqual([DEFAULT_EXTENSION_ID]);
      writeFileSync(file, JSON.stringify({ ids: [added] }), { mode: 0o600 });
      expect(idsOf(fake.options)).toEqual([DEFAULT_EXTENSION_ID, added]);
      // Loosened: fail closed, the built-in id included.
      chmodSync(file, 0o644);
      expect(idsOf(fake.options)).toEqual([]);
      chmodSync(file, 0o600);
      expect(idsOf(fake.options)).toEqual([DEFAULT_EXTENSION_ID, added]);
      writeFileSync(file, '{"ids": "not a list"}', { mode: 0o600 });
      expect(idsOf(fake.options)).toEqual([]);
      rmSync(file);
      expect(idsOf(fake.options)).toEqual([DEFAULT_EXTENSION_ID]);
    } finally {
      await daemon.stop('test');
    }
  });

  it('refuses to start when extensions.json is open to others, and undoes what it created', async () => {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const file = join(home, 'extensions.json');
    writeFileSync(file, JSON.stringify({ ids: ['c'.repeat(32)] }), { mode: 0o600 });
    chmodSync(file, 0o644);
    const fake = fakeServer();
    await expect(startDaemon(config, fake.deps)).rejects.toMatchObject({
      kind: 'unsafe-state',
      message: expect.stringContaining(`refusing to use ${file}: its mode is 0644`),
    });
    expect(fake.events).toEqual([]);
    for (const name of ['bproxy.pid', 'port', 'token', 'pairing.json'])
      expect(existsSync(join(home, name)), name).toBe(false);
  });

  it('turns EADDRINUSE into "port N is in use" and undoes what it created', async () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    const fake = fakeServer(async () => Promise.reject(inUse));
    await expect(startDaemon({ ...config, port: 9615 }, fake.deps)).rejects.toMatchObject({
      kind: 'port',
      message:
        'port 9615 is in use on 127.0.0.1 (set BPROXY_PORT to another port, or to 0 for any free port)',
    });
    for (const file of ['bproxy.pid', 'port', 'token', 'pairing.json'])
      expect(existsSync(join(home, file)), file).toBe(false);
  });
});

describe('FileExtensionTokenStore', () => {
  it('persists the token (0600) before set() resolves, and a new store reads it back', async () => {
    const path = join(tmpdir(), `bproxy-ext-${process.pid}-${Date.now()}`);
    try {
      const store = FileExtensionTokenStore.load(path);
      expect(store.get()).toBeNull();
      await store.set('k'.repeat(43));
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(FileExtensionTokenStore.load(path).get()).toBe('k'.repeat(43));
      await store.set('m'.repeat(43));
      expect(FileExtensionTokenStore.load(path).get()).toBe('m'.repeat(43));
    } finally {
      rmSync(path, { force: true });
    }
  });

  it('refuses a file that does not hold a token', () => {
    const path = join(tmpdir(), `bproxy-ext-bad-${process.pid}-${Date.now()}`);
    writeFileSync(path, 'short', { mode: 0o600 });
    try {
      expect(() => FileExtensionTokenStore.load(path)).toThrow('does not hold an extension token');
    } finally {
      rmSync(path, { force: true });
    }
  });
});
