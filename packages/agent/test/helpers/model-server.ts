/**
 * Scripted model servers on 127.0.0.1, speaking the real streaming wire formats: OpenAI
 * chat-completions (`POST /v1/chat/completions`, SSE `data:` chunks with `tool_calls` deltas and
 * `[DONE]`) and Anthropic messages (`POST /v1/messages`, SSE `event:`/`data:` pairs from
 * `message_start` to `message_stop`, `tool_use` blocks with `input_json_delta`). Each request gets the
 * next scripted step; every request body is recorded so tests can read what the agent sent (tools,
 * tool results). A step may hang until the client goes away (a stop mid-stream) or fail with an HTTP
 * error in the provider's own error shape.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly id?: string;
}

export interface Answer {
  readonly text?: string;
  readonly calls?: readonly ScriptedCall[];
}

/**
 * Text streamed in `piece`-character deltas, one per turn of the event loop or every `everyMs` (OpenAI
 * format), then the stream stays open until the client goes away, as a model still answering does
 * (or ends, with `end`). `progress` tells how far it got.
 */
export interface Trickle {
  readonly trickle: string;
  readonly piece: number;
  /** Milliseconds between deltas (default: none, the next turn of the event loop). */
  readonly everyMs?: number;
  /** End the answer after the last delta (default: stay open until the client goes away). */
  readonly end?: boolean;
  readonly progress?: TrickleProgress;
}

export interface TrickleProgress {
  /** Deltas written so far, of `total`. */
  sent: number;
  total: number;
  /** The client went away (a stop), and when (performance.now()). */
  closedAt: number | null;
}

export type Reply =
  | Answer
  | Trickle
  | { readonly status: number; readonly message: string }
  | { readonly hang: true; readonly text?: string }
  | { readonly midStreamError: string; readonly text?: string };

export type Step = Reply | ((request: RecordedRequest) => Reply);

export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
  /** When the request arrived (performance.now()). */
  readonly at: number;
  /** When its scripted answer had been written in full (performance.now()). */
  answeredAt?: number;
}

export interface ModelServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Resolves when a hanging step's client went away. */
  hungUp(): Promise<void>;
  push(...steps: Step[]): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

let seq = 0;

function openAiStream(res: ServerResponse, reply: Answer): void {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): void => {
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  };
  chunk({ role: 'assistant', content: '' });
  const text = reply.text ?? '';
  if (text !== '') {
    const half = Math.ceil(text.length / 2);
    chunk({ content: text.slice(0, half) });
    chunk({ content: text.slice(half) });
  }
  (reply.calls ?? []).forEach((call, index) => {
    const args = JSON.stringify(call.input);
    const half = Math.ceil(args.length / 2);
    chunk({
      tool_calls: [
        {
          index,
          id: call.id ?? `call_${++seq}`,
          type: 'function',
          function: { name: call.name, arguments: '' },
        },
      ],
    });
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
  });
  chunk({}, (reply.calls ?? []).length > 0 ? 'tool_calls' : 'stop');
  res.end('data: [DONE]\n\n');
}

function trickle(res: ServerResponse, reply: Trickle, closed: () => void): void {
  const total = Math.ceil(reply.trickle.length / reply.piece);
  const progress = reply.progress ?? { sent: 0, total, closedAt: null };
  progress.total = total;
  res.on('close', () => {
    progress.closedAt = performance.now();
    closed();
  });
  const write = (delta: Record<string, unknown>) =>
    res.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
    );
  write({ role: 'assistant', content: '' });
  const next = (): void => {
    if (progress.closedAt !== null) return;
    if (progress.sent >= total) {
      if (reply.end === true) {
        res.write(
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
        );
        res.end('data: [DONE]\n\n');
      }
      return;
    }
    const at = progress.sent * reply.piece;
    write({ content: reply.trickle.slice(at, at + reply.piece) });
    progress.sent += 1;
    if (reply.everyMs === undefined) setImmediate(next);
    else setTimeout(next, reply.everyMs);
  };
  next();
}

function anthropicEvent(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function anthropicStart(res: ServerResponse): void {
  anthropicEvent(res, 'message_start', {
    message: {
      id: `msg_${++seq}`,
      type: 'message',
      role: 'assistant',
      model: 'scripted',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
}

function anthropicText(res: ServerResponse, index: number, text: string): void {
  anthropicEvent(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
  const half = Math.ceil(text.length / 2);
  anthropicEvent(res, 'content_block_delta', {
    index,
    delta: { type: 'text_delta', text: text.slice(0, half) },
  });
  anthropicEvent(res, 'content_block_delta', {
    index,
    delta: { type: 'text_delta', text: text.slice(half) },
  });
  anthropicEvent(res, 'content_block_stop', { index });
}

function anthropicStream(res: ServerResponse, reply: Answer): void {
  anthropicStart(res);
  let index = 0;
  if ((reply.text ?? '') !== '') anthropicText(res, index++, reply.text ?? '');
  for (const call of reply.calls ?? []) {
    anthropicEvent(res, 'content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id ?? `toolu_${++seq}`, name: call.name, input: {} },
    });
    const args = JSON.stringify(call.input);
    const half = Math.ceil(args.length / 2);
    anthropicEvent(res, 'content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: args.slice(0, half) },
    });
    anthropicEvent(res, 'content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: args.slice(half) },
    });
    anthropicEvent(res, 'content_block_stop', { index });
    index++;
  }
  anthropicEvent(res, 'message_delta', {
    delta: { stop_reason: (reply.calls ?? []).length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  anthropicEvent(res, 'message_stop', {});
  res.end();
}

export async function startModelServer(...initial: Step[]): Promise<ModelServer> {
  const steps: Step[] = [...initial];
  const requests: RecordedRequest[] = [];
  const hangups: (() => void)[] = [];
  let hungUp = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const at = performance.now();
      const raw = await readBody(req);
      const path = (req.url ?? '').split('?')[0] ?? '';
      const request: RecordedRequest = {
        path,
        headers: req.headers,
        body: JSON.parse(raw) as Record<string, unknown>,
        at,
      };
      requests.push(request);
      const anthropic = path.endsWith('/messages');
      const step = steps.shift();
      const reply: Reply =
        step === undefined
          ? { status: 500, message: 'the script has no more steps' }
          : typeof step === 'function'
            ? step(request)
            : step;
      if ('status' in reply) {
        const body = anthropic
          ? {
              type: 'error',
              error: {
                type: reply.status === 401 ? 'authentication_error' : 'api_error',
                message: reply.message,
              },
            }
          : { error: { message: reply.message, type: 'invalid_request_error', code: null } };
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if ('trickle' in reply) {
        trickle(res, reply, () => {
          hungUp += 1;
          for (const wake of hangups.splice(0)) wake();
        });
        return;
      }
      if ('hang' in reply) {
        if (anthropic) {
          anthropicStart(res);
          if (reply.text !== undefined) anthropicText(res, 0, reply.text);
        } else if (reply.text !== undefined) {
          res.write(
            `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [{ index: 0, delta: { content: reply.text }, finish_reason: null }] })}\n\n`,
          );
        }
        res.on('close', () => {
          hungUp += 1;
          for (const wake of hangups.splice(0)) wake();
        });
        return;
      }
      if ('midStreamError' in reply) {
        anthropicStart(res);
        if (reply.text !== undefined) anthropicText(res, 0, reply.text);
        anthropicEvent(res, 'error', { error: { type: 'overloaded_error', message: reply.midStreamError } });
        res.end();
        return;
      }
      if (anthropic) anthropicStream(res, reply);
      else openAiStream(res, reply);
      request.answeredAt = performance.now();
    })();
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    hungUp: () => (hungUp > 0 ? Promise.resolve() : new Promise<void>((resolve) => hangups.push(resolve))),
    push: (...more) => void steps.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
