/**
 * The browser-client registry. A client is one driver instance (an extension in one browser profile,
 * a launched, attached or remote CDP browser), identified by the instanceId of its hello and reached
 * through a DriverLink — a WebSocket or an in-process pair, the daemon does not care which.
 * A reconnect with the same instanceId takes over the record (and its tabs and pending requests);
 * a second live connection with the same id replaces the first.
 */
import type { BproxyForwardedRequest, HelloMessage, SessionId } from '@bproxy/protocol';
import type { DriverLink } from '../server-options';

export interface ClientRecord {
  key: string;
  name: string;
  kind: 'extension' | 'cdp';
  version?: string;
  /** The browser's user agent, as its hello said. */
  userAgent?: string;
  /** null while disconnected. */
  transport: DriverLink | null;
  /** Wall time of the latest connection, for debug.status. */
  connectedAt: number;
  /** Monotonic time of the latest connection; picks "the most recently connected". */
  connectedMono: number;
  disconnectedMono: number | null;
  /** Launcher that started this client, if any (its name answers to --browser). */
  launcher?: string;
  /** The one session this browser serves (a farm's browser per session); others never see it. */
  session?: SessionId;
  /** Label used in logs (`ws_client`), e.g. client-3. */
  label: string;
  /** The browser's run, as its last hello said (an extension's): another one means it restarted. */
  run?: string;
}

export class ClientRegistry {
  private readonly clients = new Map<string, ClientRecord>();
  private counter = 0;

  constructor(private readonly clock: { now(): number; monotonic(): number }) {}

  /**
   * Registers a connection after its hello. Returns the record, the transport it displaced, if any,
   * and whether the browser restarted since its last connection (another run: its tabs are gone).
   */
  attach(
    hello: HelloMessage,
    transport: DriverLink,
    started: { launcher?: string; session?: SessionId } = {},
  ): { record: ClientRecord; displaced: DriverLink | null; restarted: boolean } {
    const existing = this.clients.get(hello.client.instanceId);
    const displaced = existing?.transport ?? null;
    const run = hello.client.run;
    const restarted = existing?.run !== undefined && run !== undefined && existing.run !== run;
    const record: ClientRecord = existing ?? {
      key: hello.client.instanceId,
      name: this.uniqueName(hello.client.name ?? (hello.client.kind === 'extension' ? 'chrome' : 'cdp')),
      kind: hello.client.kind,
      transport: null,
      connectedAt: 0,
      connectedMono: 0,
      disconnectedMono: null,
      label: `client-${++this.counter}`,
    };
    if (hello.client.version !== undefined) record.version = hello.client.version;
    if (hello.client.userAgent !== undefined) record.userAgent = hello.client.userAgent;
    if (run !== undefined) record.run = run;
    if (started.launcher !== undefined) record.launcher = started.launcher;
    if (started.session !== undefined) record.session = started.session;
    record.transport = transport;
    record.connectedAt = this.clock.now();
    record.connectedMono = this.clock.monotonic();
    record.disconnectedMono = null;
    this.clients.set(record.key, record);
    return { record, displaced, restarted };
  }

  /** Marks the client disconnected if `transport` is still its current connection. */
  detach(key: string, transport: DriverLink): ClientRecord | null {
    const record = this.clients.get(key);
    if (!record || record.transport !== transport) return null;
    record.transport = null;
    record.disconnectedMono = this.clock.monotonic();
    return record;
  }

  /** Forgets a client entirely (a crashed launched browser will come back under another id). */
  remove(key: string): void {
    this.clients.delete(key);
  }

  get(key: string): ClientRecord | undefined {
    return this.clients.get(key);
  }

  all(): ClientRecord[] {
    return [...this.clients.values()];
  }

  connected(): ClientRecord[] {
    return this.all().filter((c) => c.transport !== null);
  }

  /** A browser every session may use, by its name or its launcher's; a session's own browser is not one. */
  byName(name: string): ClientRecord | undefined {
    return this.all().find((c) => c.session === undefined && (c.name === name || c.launcher === name));
  }

  /**
   * Without a name: the most recently connected extension, else the most recently connected CDP
   * browser — of those every session may use.
   */
  pickDefault(): ClientRecord | undefined {
    const live = this.connected()
      .filter((c) => c.session === undefined)
      .sort((a, b) => b.connectedMono - a.connectedMono);
    return live.find((c) => c.kind === 'extension') ?? live[0];
  }

  inGrace(record: ClientRecord, graceMs: number): boolean {
    return (
      record.transport === null &&
      record.disconnectedMono !== null &&
      this.clock.monotonic() - record.disconnectedMono < graceMs
    );
  }

  send(record: ClientRecord, request: BproxyForwardedRequest): boolean {
    if (!record.transport) return false;
    record.transport.send({ type: 'request', request });
    return true;
  }

  private uniqueName(base: string): string {
    const taken = new Set(this.all().map((c) => c.name));
    if (!taken.has(base)) return base;
    for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
  }
}
