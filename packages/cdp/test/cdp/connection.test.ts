import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CdpConnection } from '../../src/cdp/connection';
import { CdpClosedError, CdpProtocolError, CdpTimeoutError } from '../../src/cdp/errors';
import { createPipeTransport } from '../../src/cdp/pipe-transport';
import { CdpSession } from '../../src/cdp/session';
import type { CdpTransport } from '../../src/cdp/transport';

/** A browser stand-in: records what the connection sent and lets the test answer. */
function fakeTransport(): CdpTransport & {
  sent: Record<string, unknown>[];
  deliver(message: unknown): void;
  end(reason: string): void;
} {
  const t = {
    sent: [] as Record<string, unknown>[],
    send(message: string) {
      t.sent.push(JSON.parse(message) as Record<string, unknown>);
    },
    close() {
      t.end('closed');
    },
    deliver(message: unknown) {
      t.onmessage?.(JSON.stringify(message));
    },
    end(reason: string) {
      t.onclose?.(reason);
    },
  } as CdpTransport & {
    sent: Record<string, unknown>[];
    deliver(message: unknown): void;
    end(reason: string): void;
  };
  return t;
}

describe('CdpConnection', () => {
  it('resolves a call with the result that carries its id', async () => {
    const t = fakeTransport();
    const c = new CdpConnection(t);
    const version = c.send('Browser.getVersion', {});
    expect(t.sent[0]).toMatchObject({ id: 1, method: 'Browser.getVersion', params: {} });
    t.deliver({ id: 1, result: { product: 'Chrome/1', userAgent: 'UA', protocolVersion: '1.3' } });
    await expect(version).resolves.toMatchObject({ userAgent: 'UA' });
  });

  it('rejects a call the browser refuses with a protocol error naming the method, stack at the caller', async () => {
    const t = fakeTransport();
    const c = new CdpConnection(t);
    const call = c.send('Page.navigate', { url: 'x' });
    t.deliver({ id: 1, error: { code: -32000, message: 'Cannot navigate to invalid URL' } });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdpProtocolError);
    expect((error as CdpProtocolError).message).toBe('Page.navigate: Cannot navigate to invalid URL');
    expect((error as Error).stack).toContain('cdp/connection.test.ts');
  });

  it('times a call out with a message that says what to do', async () => {
    const c = new CdpConnection(fakeTransport());
    const error = await c.send('Runtime.enable', {}, { timeoutMs: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdpTimeoutError);
    expect((error as Error).message).toMatch(/Runtime\.enable got no answer .* within 10 ms; .*deadline/);
  });

  it('rejects every pending call with CdpClosedError when the transport closes, and later calls too', async () => {
    const t = fakeTransport();
    const c = new CdpConnection(t);
    const a = c.send('Page.enable', {});
    const b = c.send('Runtime.enable', {}, { sessionId: 'S1' });
    t.end('pipe closed');
    await expect(a).rejects.toBeInstanceOf(CdpClosedError);
    await expect(b).rejects.toThrow(/pipe closed/);
    await expect(c.send('Page.enable', {})).rejects.toBeInstanceOf(CdpClosedError);
    expect(c.closed).toBe(true);
  });

  it('routes flat-mode events to the session they belong to', () => {
    const t = fakeTransport();
    const c = new CdpConnection(t);
    const one = new CdpSession(c, 'S1');
    const seen: string[] = [];
    one.on('Page.frameStartedLoading', ({ frameId }) => seen.push(frameId));
    t.deliver({ method: 'Page.frameStartedLoading', params: { frameId: 'F-other' }, sessionId: 'S2' });
    t.deliver({ method: 'Page.frameStartedLoading', params: { frameId: 'F-mine' }, sessionId: 'S1' });
    expect(seen).toEqual(['F-mine']);
    void one.send('Page.enable', {});
    expect(t.sent.at(-1)).toMatchObject({ method: 'Page.enable', sessionId: 'S1' });
  });

  it('ends an event wait when the connection closes instead of hanging', async () => {
    const t = fakeTransport();
    const c = new CdpConnection(t);
    const wait = c.waitFor('Page.frameNavigated', { timeoutMs: 10_000, what: 'commit' });
    t.end('gone');
    await expect(wait.promise).rejects.toBeInstanceOf(CdpClosedError);
  });
});

describe('pipe transport', () => {
  it('frames messages by NUL bytes, across chunk boundaries', () => {
    const toBrowser = new PassThrough();
    const fromBrowser = new PassThrough();
    const t = createPipeTransport(toBrowser, fromBrowser);
    const got: string[] = [];
    t.onmessage = (m) => got.push(m);
    fromBrowser.write('{"id":1');
    fromBrowser.write(',"result":{}}\0{"id":2,"result":{}}\0{"id"');
    fromBrowser.write(':3,"result":{}}\0');
    expect(got).toEqual(['{"id":1,"result":{}}', '{"id":2,"result":{}}', '{"id":3,"result":{}}']);
    t.send('{"id":9}');
    expect(toBrowser.read()?.toString()).toBe('{"id":9}\0');
  });

  it('reports the browser closing its end', async () => {
    const fromBrowser = new PassThrough();
    const t = createPipeTransport(new PassThrough(), fromBrowser);
    const closed = new Promise<string>((resolve) => {
      t.onclose = resolve;
    });
    fromBrowser.destroy();
    await expect(closed).resolves.toMatch(/closed its pipe/);
  });
});
