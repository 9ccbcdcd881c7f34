/**
 * The Claude Code CLI, for users who have it: each turn runs `claude -p` with the prompt on stdin
 * (never in argv, where other local users could read it) and reads its stream-json output: text
 * deltas (`--include-partial-messages`), tool calls and their results, and the final result. Claude
 * Code runs its own loop; its tools are bproxy's, through `bproxy mcp --session ID` bound to the tab
 * the user shared (`--mcp-config` with `--strict-mcp-config`, so none of the user's own MCP servers
 * come along), and its built-in tools (shell, files, web) are switched off with `--tools ""`. Tools
 * the user switched off are in `--disallowedTools`, so the model never sees them. The chat resumes
 * Claude Code's own session (`--resume ID`). The scratch files and notes are not offered here: they
 * live in this process, which Claude Code cannot call.
 *
 * Stop: SIGTERM, then SIGKILL after 3 s; calls it started and never finished get synthetic results.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Env } from '@bproxy/client';
import { AgentError, clip } from '../errors';
import type { AgentLogger } from '../logger';
import { systemPrompt } from '../system-prompt';
import { HIDDEN_BROWSER_TOOLS, isBrowserTool } from '../tools/browser-tools';
import { claudeProgram } from './claude-program';
import type { Provider, TurnEnding, TurnRequest } from './provider';
import { TOOL_SPECS } from '@bproxy/tools';

export interface ClaudeCodeOptions {
  readonly env: Env;
  readonly workingDirectory: string;
  /** argv that runs `bproxy`; `mcp --session ID` is appended. */
  readonly bproxyCommand: readonly string[];
  readonly logger: AgentLogger;
  /** Default `claude`, found on the environment's PATH (on Windows, npm's claude.cmd too: ./claude-program.ts). */
  readonly executable?: string;
}

const SERVER = 'bproxy';
const PREFIX = `mcp__${SERVER}__`;
const KILL_AFTER_MS = 3_000;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const blocksOf = (message: unknown): Json[] =>
  isObject(message) && Array.isArray(message.content) ? message.content.filter(isObject) : [];

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .filter(isObject)
      .map((c) => (typeof c.text === 'string' ? c.text : ''))
      .join('\n');
  return '';
}

/** The command line of one turn (exported for the tests that check what is offered). */
export function claudeArgs(request: TurnRequest, bproxyCommand: readonly string[]): string[] {
  const [command = 'bproxy', ...prefix] = bproxyCommand;
  const offered = new Set(request.tools.map((t) => t.name).filter(isBrowserTool));
  const refused = TOOL_SPECS.map((s) => s.name).filter(
    (name) => !offered.has(name) || HIDDEN_BROWSER_TOOLS.has(name),
  );
  const mcp = {
    mcpServers: { [SERVER]: { command, args: [...prefix, 'mcp', '--session', request.session] } },
  };
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-partial-messages',
    '--model',
    request.model,
    '--mcp-config',
    JSON.stringify(mcp),
    '--strict-mcp-config',
    '--tools',
    '',
    '--allowedTools',
    [...offered].map((name) => PREFIX + name).join(','),
    ...(refused.length === 0 ? [] : ['--disallowedTools', refused.map((name) => PREFIX + name).join(',')]),
    '--system-prompt',
    systemPrompt({ files: false, notes: false }),
    ...(request.providerSession === null ? [] : ['--resume', request.providerSession]),
  ];
}

export class ClaudeCodeProvider implements Provider {
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly options: ClaudeCodeOptions) {}

  runTurn(request: TurnRequest): Promise<TurnEnding> {
    const program =
      this.options.executable === undefined
        ? claudeProgram(this.options.env)
        : { command: this.options.executable, prefix: [] };
    request.record({ role: 'user', text: request.userText });
    const child = spawn(
      program.command,
      [...program.prefix, ...claudeArgs(request, this.options.bproxyCommand)],
      {
        cwd: this.options.workingDirectory,
        env: { ...this.options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.children.add(child);
    child.stdin.on('error', () => {});
    child.stdin.end(request.userText);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });

    return new Promise<TurnEnding>((resolve, reject) => {
      let settled = false;
      let streamedText = false;
      let said = '';
      let steps = 0;
      let paused: string | undefined;
      let outcome: (() => void) | null = null;
      const finish = (settle: () => void): void => {
        if (settled) return;
        settled = true;
        request.signal.removeEventListener('abort', onStop);
        if (said !== '') request.record({ role: 'assistant', text: said, toolCalls: [] });
        settle();
      };
      const kill = (): void => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS).unref();
      };
      const onStop = (): void => {
        kill();
        finish(() => resolve({ kind: 'stopped' }));
      };
      const text = (delta: string): void => {
        said += delta;
        request.onText(delta);
      };

      const onLine = (line: string): void => {
        let event: unknown;
        try {
          event = JSON.parse(line);
        } catch {
          return; // not an event (a warning printed to stdout): skip it
        }
        if (!isObject(event)) return;
        if (typeof event.session_id === 'string' && event.session_id !== '')
          request.setProviderSession(event.session_id);
        switch (event.type) {
          case 'stream_event': {
            const inner = isObject(event.event) ? event.event : {};
            const delta = isObject(inner.delta) ? inner.delta : {};
            if (
              inner.type === 'content_block_delta' &&
              delta.type === 'text_delta' &&
              typeof delta.text === 'string'
            ) {
              streamedText = true;
              text(delta.text);
            }
            return;
          }
          case 'assistant':
            for (const block of blocksOf(event.message)) {
              if (block.type === 'text' && typeof block.text === 'string' && !streamedText) text(block.text);
              if (
                block.type === 'tool_use' &&
                typeof block.id === 'string' &&
                typeof block.name === 'string'
              ) {
                steps += 1;
                request.observeToolCall({
                  id: block.id,
                  name: block.name.startsWith(PREFIX) ? block.name.slice(PREFIX.length) : block.name,
                  input: isObject(block.input) ? block.input : {},
                });
                if (steps > request.maxSteps) {
                  kill();
                  finish(() =>
                    reject(
                      new AgentError(
                        'TURN_LIMIT',
                        `the turn reached its cap of ${request.maxSteps} tool calls and was ended`,
                      ),
                    ),
                  );
                }
              }
            }
            streamedText = false;
            return;
          case 'user':
            for (const block of blocksOf(event.message)) {
              if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
              const content = resultText(block.content);
              const ok = block.is_error !== true;
              if (!ok && content.startsWith('HUMAN_REQUIRED'))
                paused = /^Reason: (.*)$/m.exec(content)?.[1] ?? content.split('\n', 1)[0];
              request.observeToolResult({ callId: block.tool_use_id, name: '', ok, content });
            }
            return;
          case 'result': {
            const failed = event.is_error === true || event.subtype !== 'success';
            const why = typeof event.result === 'string' ? event.result : String(event.subtype ?? 'error');
            outcome = failed
              ? () => reject(new AgentError('MODEL_ERROR', clip(`Claude Code: ${why}`)))
              : () => resolve(paused === undefined ? { kind: 'done' } : { kind: 'paused', reason: paused });
            return;
          }
          default:
            return;
        }
      };

      if (request.signal.aborted) return onStop();
      request.signal.addEventListener('abort', onStop, { once: true });
      createInterface({ input: child.stdout }).on('line', onLine);
      child.once('error', (error: NodeJS.ErrnoException) => {
        this.children.delete(child);
        finish(() =>
          reject(
            error.code === 'ENOENT'
              ? new AgentError(
                  'AGENT_NOT_CONFIGURED',
                  `the Claude Code CLI (${program.command}) is not on PATH`,
                )
              : new AgentError('MODEL_ERROR', `cannot run ${program.command}: ${error.message}`),
          ),
        );
      });
      child.once('close', (code, signal) => {
        this.children.delete(child);
        this.options.logger.info('claude_exit', { code, signal });
        const settle = outcome;
        if (settle !== null) return finish(settle);
        const tail = stderr.trim().split('\n').slice(-3).join(' ');
        finish(() =>
          reject(
            new AgentError(
              'MODEL_ERROR',
              clip(
                `Claude Code exited (${signal ?? code}) without a result${tail === '' ? '' : `: ${tail}`}`,
              ),
            ),
          ),
        );
      });
    });
  }

  async close(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    this.children.clear();
  }
}
