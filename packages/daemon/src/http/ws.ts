/**
 * GET /ws — driver connections from extensions. The gate already checked Host, Origin and the token in
 * Sec-WebSocket-Protocol during the upgrade; only `bproxy.v1` is echoed back. The socket becomes a
 * DriverLink handed to DriverConnections synchronously (before any await), with a transport
 * heartbeat that terminates sockets whose peer stopped answering and a guard against slow consumers.
 */
import { WS_CLOSE, makeError, type DaemonMessage, type DriverMessage } from '@bproxy/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { DriverConnections } from '../browsers/drivers';
import type { Logger } from '../logs/logger';
import type { DriverLink } from '../server-options';

/** A peer that lets this much pile up unread is not consuming: drop it rather than grow without bound. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

const CLOSE_CODES: Record<string, number> = {
  protocol_mismatch: WS_CLOSE.protocolMismatch,
  bad_message: WS_CLOSE.badMessage,
  hello_timeout: WS_CLOSE.helloTimeout,
  token_revoked: WS_CLOSE.tokenRevoked,
  shutting_down: WS_CLOSE.shuttingDown,
  replaced: WS_CLOSE.replaced,
};

/** What a handler that threw left behind, for the log: its kind and the start of its message, no input. */
function faultOf(error: unknown): { name: string; reason: string } {
  if (error instanceof Error) return { name: error.name.slice(0, 60), reason: error.message.slice(0, 200) };
  return { name: typeof error, reason: '' };
}

export function wsTransport(socket: WebSocket, heartbeatMs: number, logger?: Logger): DriverLink {
  const liveness = { alive: true };
  const transport: DriverLink = {
    send(message: DaemonMessage) {
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        socket.terminate();
        return;
      }
      socket.send(JSON.stringify(message));
    },
    close(reason = 'closed') {
      if (socket.readyState === socket.CLOSED) return;
      socket.close(CLOSE_CODES[reason] ?? 1000, reason.slice(0, 100));
    },
  };
  socket.on('message', (data, isBinary) => {
    liveness.alive = true;
    if (isBinary) return transport.close('bad_message');
    deliver(transport, data.toString(), logger);
  });
  socket.on('pong', () => {
    liveness.alive = true;
  });
  const heartbeat = startHeartbeat(socket, heartbeatMs, liveness);
  socket.on('error', () => socket.terminate());
  socket.on('close', (code) => {
    clearInterval(heartbeat);
    transport.onclose?.(`ws_close_${code}`);
  });
  return transport;
}

/** One text frame to the link's handler. */
function deliver(transport: DriverLink, text: string, logger?: Logger): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { type: 'unparsable' };
  }
  // No frame may take the daemon down: a handler that throws (a bug, or input it could not
  // survive) costs this frame an INTERNAL_ERROR answer, and the connection goes on.
  try {
    transport.onmessage?.(parsed as DriverMessage);
  } catch (error) {
    logger?.error({ event: 'ws_handler_failed', ...faultOf(error) });
    transport.send({
      type: 'error',
      error: makeError(
        'INTERNAL_ERROR',
        'the daemon could not handle this message; the connection stays open',
      ),
    });
  }
}

/** The transport heartbeat: a peer that answered no ping since the last one is terminated. */
function startHeartbeat(
  socket: WebSocket,
  heartbeatMs: number,
  liveness: { alive: boolean },
): NodeJS.Timeout {
  let lastBeat = performance.now();
  const heartbeat = setInterval(() => {
    const now = performance.now();
    // A tick that comes late means our own event loop was stalled: the peer's pong may be sitting
    // unread in the socket, so it gets one more round rather than being judged dead.
    const stalled = now - lastBeat > heartbeatMs * 1.5;
    lastBeat = now;
    if (!liveness.alive && !stalled) return socket.terminate();
    liveness.alive = false;
    socket.ping();
  }, heartbeatMs);
  heartbeat.unref();
  return heartbeat;
}

export function registerWsRoute(
  app: FastifyInstance,
  drivers: DriverConnections,
  sockets: Set<DriverLink>,
  heartbeatMs: number,
  logger?: Logger,
): void {
  app.get('/ws', { websocket: true }, (socket, req) => {
    const transport = wsTransport(socket, heartbeatMs, logger);
    sockets.add(transport);
    socket.on('close', () => sockets.delete(transport));
    void drivers.accept(transport, { remote: req.socket.remoteAddress ?? 'unknown' });
  });
}
