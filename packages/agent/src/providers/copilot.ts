/**
 * GitHub Copilot through `@github/copilot-sdk` — the seed's bridge. The SDK starts the Copilot
 * runtime (bundled with the SDK's platform package, or COPILOT_CLI_PATH) as a child process and talks
 * JSON-RPC with it over stdio; the runtime runs the agent loop and calls our tools back through the
 * SDK. Each chat has one Copilot session, created on its first turn and resumed by id afterwards (the
 * id is kept in the chat store, so a chat resumes after the host restarts; Copilot keeps the history
 * in its own store).
 *
 * The runtime's built-in tools (shell, file edits, web fetch) are not offered: the session's
 * `availableTools` admits our custom tools only, every permission request is rejected, and the
 * runtime works in the scratch folder. Stop aborts the session's turn; a tool call in flight gets the
 * synthetic result from the tool box.
 */
import {
  CopilotClient,
  RuntimeConnection,
  ToolSet,
  type CopilotSession,
  type Tool,
} from '@github/copilot-sdk';
import type { Env } from '@bproxy/client';
import { AgentError } from '../errors';
import type { AgentLogger } from '../logger';
import { modelError } from './model-errors';
import type { Provider, TurnEnding, TurnRequest } from './provider';

export interface CopilotOptions {
  /** A GitHub token; null: the user logged in with the Copilot CLI. */
  readonly gitHubToken: string | null;
  readonly workingDirectory: string;
  readonly env: Env;
  readonly logger: AgentLogger;
  /** The runtime to start (tests: a scripted stand-in); default the SDK's bundled runtime. */
  readonly runtimePath?: string;
}

interface ChatSession {
  readonly session: CopilotSession;
  readonly toolSignature: string;
  model: string;
}

export class CopilotProvider implements Provider {
  private client: CopilotClient | null = null;
  private readonly sessions = new Map<string, ChatSession>();
  /** The running turn of each chat: tool handlers registered with a session call into it. */
  private readonly turns = new Map<
    string,
    { request: TurnRequest; calls: number; controller: AbortController }
  >();
  /** Tells a running turn that a tool found the session paused for a human. */
  private readonly onPaused = new Map<string, (reason: string) => void>();

  constructor(private readonly options: CopilotOptions) {}

  async runTurn(request: TurnRequest): Promise<TurnEnding> {
    const chat = await this.chatSession(request);
    const { session } = chat;
    request.setProviderSession(session.sessionId);
    if (chat.model !== request.model) {
      await session.setModel(request.model);
      chat.model = request.model;
    }
    // Copilot keeps the history; the chat keeps the words, should the user switch providers later.
    request.record({ role: 'user', text: request.userText });
    let said = '';
    const limit = new AbortController();
    this.turns.set(request.chatId, { request, calls: 0, controller: limit });
    let paused: string | undefined;
    try {
      return await new Promise<TurnEnding>((resolve, reject) => {
        const unsubscribe = session.on((event) => {
          switch (event.type) {
            case 'assistant.message_delta':
              said += event.data.deltaContent;
              request.onText(event.data.deltaContent);
              break;
            case 'session.error':
              finish(() => reject(new AgentError('MODEL_ERROR', `Copilot: ${event.data.message}`)));
              break;
            case 'session.idle':
              finish(() =>
                resolve(paused === undefined ? { kind: 'done' } : { kind: 'paused', reason: paused }),
              );
              break;
            default:
              break;
          }
        });
        const onStop = (): void => {
          void session.abort().catch(() => {});
          finish(() => resolve({ kind: 'stopped' }));
        };
        const onLimit = (): void => {
          void session.abort().catch(() => {});
          finish(() =>
            reject(
              new AgentError(
                'TURN_LIMIT',
                `the turn reached its cap of ${request.maxSteps} tool calls and was ended`,
              ),
            ),
          );
        };
        const onPaused = (reason: string): void => {
          paused = reason;
        };
        const finish = (settle: () => void): void => {
          unsubscribe();
          request.signal.removeEventListener('abort', onStop);
          limit.signal.removeEventListener('abort', onLimit);
          settle();
        };
        this.onPaused.set(request.chatId, onPaused);
        if (request.signal.aborted) return onStop();
        request.signal.addEventListener('abort', onStop, { once: true });
        limit.signal.addEventListener('abort', onLimit, { once: true });
        session
          .send({ prompt: request.userText })
          .catch((error: unknown) =>
            finish(() => reject(modelError('Copilot', error, this.options.gitHubToken))),
          );
      });
    } finally {
      if (said !== '') request.record({ role: 'assistant', text: said, toolCalls: [] });
      this.turns.delete(request.chatId);
      this.onPaused.delete(request.chatId);
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.sessions.clear();
    if (client !== null) await client.stop().catch(() => client.forceStop());
  }

  private async ensureClient(): Promise<CopilotClient> {
    if (this.client !== null) return this.client;
    const env = { ...this.options.env };
    const client = new CopilotClient({
      connection: RuntimeConnection.forStdio(
        this.options.runtimePath === undefined ? {} : { path: this.options.runtimePath },
      ),
      workingDirectory: this.options.workingDirectory,
      env,
      logLevel: 'error',
      ...(this.options.gitHubToken === null ? {} : { gitHubToken: this.options.gitHubToken }),
    });
    try {
      await client.start();
    } catch (error) {
      throw modelError('Copilot', error, this.options.gitHubToken);
    }
    this.client = client;
    return client;
  }

  /** The chat's Copilot session: kept, resumed by the stored id, or created; rebuilt when the tool switches changed. */
  private async chatSession(request: TurnRequest): Promise<ChatSession> {
    const signature = request.tools.map((t) => t.name).join(',');
    const kept = this.sessions.get(request.chatId);
    if (kept !== undefined && kept.toolSignature === signature) return kept;
    const client = await this.ensureClient();
    if (kept !== undefined) await kept.session.disconnect().catch(() => {});
    const config = {
      model: request.model,
      streaming: true,
      tools: request.tools.map((definition): Tool => ({
        name: definition.name,
        description: definition.description,
        parameters: definition.inputSchema,
        skipPermission: true,
        defer: 'never',
        handler: (args: unknown, invocation) =>
          this.callTool(request.chatId, definition.name, args, invocation.toolCallId),
      })),
      availableTools: new ToolSet().addCustom('*').toArray(),
      systemMessage: { mode: 'replace' as const, content: request.system },
      workingDirectory: this.options.workingDirectory,
      onPermissionRequest: () => ({ kind: 'reject' as const }),
    };
    const previous = kept?.session.sessionId ?? request.providerSession;
    let session: CopilotSession;
    try {
      session =
        previous === null ? await client.createSession(config) : await client.resumeSession(previous, config);
    } catch (error) {
      if (previous === null) throw modelError('Copilot', error, this.options.gitHubToken);
      // The stored session is gone from Copilot's store: start a new one rather than failing the chat.
      this.options.logger.warn('copilot_resume_failed', { chatId: request.chatId });
      try {
        session = await client.createSession(config);
      } catch (again) {
        throw modelError('Copilot', again, this.options.gitHubToken);
      }
    }
    const chat = { session, toolSignature: signature, model: request.model };
    this.sessions.set(request.chatId, chat);
    return chat;
  }

  private async callTool(chatId: string, name: string, args: unknown, callId: string) {
    const turn = this.turns.get(chatId);
    if (turn === undefined)
      return { textResultForLlm: 'NOT RUN: no turn is running', resultType: 'rejected' as const };
    turn.calls += 1;
    if (turn.calls > turn.request.maxSteps) {
      turn.controller.abort();
      return { textResultForLlm: 'NOT RUN: the turn reached its step cap', resultType: 'rejected' as const };
    }
    const input =
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {};
    const result = await turn.request.runTool({ id: callId, name, input });
    if (result.pausedFor !== undefined) this.onPaused.get(chatId)?.(result.pausedFor);
    return {
      textResultForLlm: result.content,
      resultType: result.ok ? ('success' as const) : ('failure' as const),
      ...(result.image === undefined
        ? {}
        : {
            binaryResultsForLlm: [
              { data: result.image.data, mimeType: result.image.mimeType, type: 'image' as const },
            ],
          }),
    };
  }
}
