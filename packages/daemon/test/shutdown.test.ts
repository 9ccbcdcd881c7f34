import { describe, expect, it } from 'vitest';
import { FakeExtension, startDaemon, until } from './harness';

describe('shutdown', () => {
  it('drains in-flight requests, refuses newcomers with 503, and closes driver sockets', async () => {
    const daemon = await startDaemon();
    const ext = new FakeExtension(daemon);
    await ext.connect();
    const opened = await daemon.call('tab.open', { url: 'http://x/' });
    const session = opened.ok ? (opened.data as { session: string }).session : '';
    let release = () => undefined as void;
    ext.behaviour = async (req) => {
      if (req.action === 'text') await new Promise<void>((r) => (release = r));
      return ext.defaultAnswer(req);
    };
    const inflight = daemon.call('text', {}, session);
    await until(() => ext.received.some((r) => r.action === 'text'), 'the request to reach the extension');
    const socketClosed = new Promise<number>((resolve) => ext.socket?.on('close', (c) => resolve(c)));
    const stopping = daemon.server.shutdown(5_000);
    const refused = await daemon
      .post({ id: 'late1', action: 'session.list', params: {}, deadline: Date.now() + 1000 })
      .catch(() => null);
    if (refused) expect(refused.status).toBe(503);
    release();
    const answer = await inflight;
    expect(answer.ok).toBe(true);
    await stopping;
    expect(await socketClosed).toBe(4005);
  });
});
