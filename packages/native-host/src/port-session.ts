/**
 * One browser's conversation with the host, message by message: validate against the port's schema
 * (a failure is a BAD_REQUEST naming the field, and the host goes on), insist on hello first, check
 * the native protocol version, answer the daemon locator and pairing requests, and pass chats and
 * terminals to their handlers. Requests run concurrently: a pairing request does not wait for a chat.
 * What it logs is the message type and outcome, never a message's content.
 */
import {
  BPROXY_VERSION,
  ExtensionToHostSchema,
  NATIVE_PROTOCOL_VERSION,
  versionSkew,
  formatIssues,
  type ErrorCode,
  type ExtensionToHost,
} from '@bproxy/protocol';
import { failureOf } from './failure';
import {
  isAgentMessage,
  isTerminalMessage,
  type AgentMessage,
  type HandlerContext,
  type HandlerFactory,
  type PortHandler,
  type TerminalMessage,
} from './handlers';
import type { HostLog } from './host-log';
import type { Outbox } from './outbox';

type Ties = { id?: string; chatId?: string; termId?: string };

/** The request, chat or terminal a message names, when it names one well-formed. */
function tiesOf(value: unknown): Ties {
  const ties: Ties = {};
  if (value === null || typeof value !== 'object') return ties;
  for (const key of ['id', 'chatId', 'termId'] as const) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(field)) ties[key] = field;
  }
  return ties;
}

function typeOf(value: unknown): string {
  const type =
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>).type : undefined;
  return typeof type === 'string' ? type.slice(0, 40) : typeof type;
}

/** Messages too frequent to log one line each. */
const QUIET_TYPES = new Set(['pty.input', 'pty.resize']);

/** A handler created on first use, shared by every later message of its family. */
class HandlerSlot<M extends ExtensionToHost> {
  private handler: Promise<PortHandler<M> | null> | null = null;

  constructor(
    private readonly factory: HandlerFactory<M>,
    private readonly context: HandlerContext,
  ) {}

  get(): Promise<PortHandler<M> | null> {
    this.handler ??= Promise.resolve().then(() => this.factory(this.context));
    return this.handler;
  }

  async close(): Promise<void> {
    const handler = await this.handler?.catch(() => null);
    await handler?.close();
  }
}

export interface PortSessionOptions {
  readonly outbox: Outbox;
  readonly log: HostLog;
  readonly context: HandlerContext;
  readonly agent: HandlerFactory<AgentMessage>;
  readonly terminal: HandlerFactory<TerminalMessage>;
  /** The host must end: the browser speaks another protocol version. */
  readonly onFatal: (reason: string) => void;
  /** The CLI launcher's absolute path, said in the welcome (null: none). */
  readonly cliLauncher?: string | null;
}

export class PortSession {
  private welcomed = false;
  private readonly agent: HandlerSlot<AgentMessage>;
  private readonly terminal: HandlerSlot<TerminalMessage>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: PortSessionOptions) {
    this.agent = new HandlerSlot(options.agent, options.context);
    this.terminal = new HandlerSlot(options.terminal, options.context);
  }

  /** Whether the browser said hello in our protocol version (pushes wait for it). */
  get ready(): boolean {
    return this.welcomed;
  }

  receive(value: unknown): void {
    const parsed = ExtensionToHostSchema.safeParse(value);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))];
      this.options.log.warn('bad_message', { type: typeOf(value), fields: fields.join(',') });
      this.fail(tiesOf(value), 'BAD_REQUEST', formatIssues(parsed.error, value));
      return;
    }
    const message = parsed.data;
    if (!QUIET_TYPES.has(message.type)) this.options.log.info('received', { type: message.type });
    if (message.type === 'hello') {
      this.hello(message.protocolVersion, message.extensionVersion);
      return;
    }
    if (!this.welcomed) {
      this.fail(tiesOf(message), 'BAD_REQUEST', 'the first message on the port must be hello');
      return;
    }
    this.track(this.serve(message));
  }

  /** Waits for the requests in flight, then closes the handlers. */
  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.terminal.close()]);
    await Promise.all(this.inFlight);
  }

  private hello(protocolVersion: number, extensionVersion: string): void {
    const { outbox, log } = this.options;
    if (protocolVersion !== NATIVE_PROTOCOL_VERSION) {
      log.error('protocol_mismatch', {
        extension: protocolVersion,
        host: NATIVE_PROTOCOL_VERSION,
        extensionVersion,
      });
      this.fail(
        {},
        'PROTOCOL_MISMATCH',
        `the extension speaks native protocol ${protocolVersion} and this host ${NATIVE_PROTOCOL_VERSION}: ` +
          'update the extension and bproxy to the same release, then run `bproxy setup` again',
      );
      this.options.onFatal('protocol mismatch');
      return;
    }
    // The product versions, by the protocol's one rule: refused with the older part and its fix.
    const skew = versionSkew(
      { part: 'extension', version: extensionVersion },
      { part: 'native host', version: BPROXY_VERSION },
    );
    if (skew !== null) {
      log.error('version_mismatch', { extensionVersion, hostVersion: BPROXY_VERSION });
      this.fail({}, 'VERSION_MISMATCH', skew.message);
      this.options.onFatal('version mismatch');
      return;
    }
    this.welcomed = true;
    log.info('welcome', { extensionVersion });
    const cli = this.options.cliLauncher ?? null;
    outbox.send({
      type: 'welcome',
      protocolVersion: NATIVE_PROTOCOL_VERSION,
      hostVersion: BPROXY_VERSION,
      ...(cli === null ? {} : { cli }),
    });
  }

  private async serve(message: Exclude<ExtensionToHost, { type: 'hello' }>): Promise<void> {
    const { outbox, log, context } = this.options;
    try {
      if (message.type === 'daemon.locate') {
        const location = await context.daemon.locate(message.start);
        log.info('daemon_location', { start: message.start, ...location });
        outbox.send({ type: 'daemon.location', id: message.id, ...location });
      } else if (message.type === 'pairing.request') {
        const issued = await context.daemon.issuePairing();
        // The code goes to the browser and nowhere else: not in this line, not in any other.
        log.info('pairing_issued', { port: issued.port, started: issued.started });
        outbox.send({
          type: 'pairing.code',
          id: message.id,
          port: issued.port,
          code: issued.code,
          expiresAt: issued.expiresAt,
        });
      } else if (isAgentMessage(message)) {
        await this.delegate(this.agent, message, 'the in-browser agent is not available in this native host');
      } else if (isTerminalMessage(message)) {
        await this.delegate(this.terminal, message, 'terminals are not available in this native host');
      }
    } catch (error) {
      const failure = failureOf(error);
      log.warn('request_failed', { type: message.type, code: failure.code, reason: failure.message });
      this.fail(tiesOf(message), failure.code, failure.message);
    }
  }

  private async delegate<M extends ExtensionToHost>(
    slot: HandlerSlot<M>,
    message: M,
    missing: string,
  ): Promise<void> {
    const handler = await slot.get();
    if (handler === null) {
      this.fail(tiesOf(message), 'UNSUPPORTED_ACTION', missing);
      return;
    }
    await handler.handle(message, (reply) => this.options.outbox.send(reply));
  }

  private fail(ties: Ties, code: ErrorCode, message: string): void {
    this.options.outbox.send({ type: 'error', ...ties, code, message: message.slice(0, 4000) });
  }

  private track(task: Promise<void>): void {
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }
}
