/**
 * `/json/list` for the bridge's endpoint: the browser's targets, asked over a short-lived connection
 * of their own. The entries carry no WebSocket URLs: those would name the real browser's port and
 * let a tool bypass the bridge; tools attach to targets through the browser connection instead.
 */
import { connectWebSocket } from '@bproxy/cdp/wire';
import { parseResponse } from '../relay/cdp-frames';

export async function listTargets(wsUrl: string, timeoutMs: number): Promise<Record<string, unknown>[]> {
  const transport = await connectWebSocket(wsUrl, timeoutMs);
  try {
    const text = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Target.getTargets: no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      transport.onmessage = (message) => {
        if (!message.startsWith('{"id":1,')) return;
        clearTimeout(timer);
        resolve(message);
      };
      transport.onclose = (reason) => {
        clearTimeout(timer);
        reject(new Error(`Target.getTargets: ${reason}`));
      };
      transport.send(JSON.stringify({ id: 1, method: 'Target.getTargets', params: {} }));
    });
    const { error, result } = parseResponse(text);
    if (error !== undefined) throw new Error(`Target.getTargets: ${error}`);
    const infos = Array.isArray(result.targetInfos) ? (result.targetInfos as Record<string, unknown>[]) : [];
    return infos.map((info) => ({
      id: info.targetId,
      type: info.type,
      title: info.title,
      url: info.url,
      attached: info.attached,
      description: '',
    }));
  } finally {
    transport.close();
  }
}
