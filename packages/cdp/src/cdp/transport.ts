/**
 * The raw channel to a browser: JSON text in, JSON text out. Four members, like the daemon's
 * MessageTransport; implemented over a WebSocket (attach, remote) and over the launch pipe.
 */
export interface CdpTransport {
  send(message: string): void;
  close(): void;
  onmessage?: (message: string) => void;
  onclose?: (reason: string) => void;
}
