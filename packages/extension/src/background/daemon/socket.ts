/**
 * The four members of a WebSocket the connection uses, so tests can hand in a scripted fake, and the
 * adapter over the platform WebSocket.
 */

export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((data: unknown) => void) | null;
  onclose: ((code: number, reason: string) => void) | null;
}

export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

export const platformSocketFactory: SocketFactory = (url, protocols) => {
  const ws = new WebSocket(url, protocols);
  const socket: SocketLike = {
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    onopen: null,
    onmessage: null,
    onclose: null,
  };
  ws.onopen = () => socket.onopen?.();
  ws.onmessage = (event: MessageEvent) => socket.onmessage?.(event.data);
  ws.onclose = (event: CloseEvent) => socket.onclose?.(event.code, event.reason);
  return socket;
};
