/**
 * One tool call, run the same way for every surface (the MCP server, the in-browser agent): the tool
 * looked up, its arguments checked, its action sent with the tool's deadline through the surface's own
 * `send` (its daemon client, in its session), the answer checked against the action's result schema,
 * and the outcome turned into the catalogue's reply. A surface keeps only its policy: which tools it
 * offers, which session a call runs in, and its own words for some errors.
 */
import type { ErrorCode } from '@bproxy/protocol';
import { TOOLS_BY_NAME, type ToolSpec } from './catalogue';
import { errorReply, type ToolReply } from './errors';
import { outcomeOf, type DaemonAnswer } from './outcome';
import { successReply } from './replies';
import { checkToolArgs, toolTimeoutMs } from './tool-call';
import { batchReply, checkBatchArgs, stepNamedByTool, type StepPolicy } from './batch-tool';

/** One action of a tool call, as the surface sends it to the daemon. */
export interface ToolAction {
  readonly tool: ToolSpec;
  /** The checked params of `tool.action`. */
  readonly params: Record<string, unknown>;
  /** The call's deadline, from now. */
  readonly timeoutMs: number;
}

/**
 * Sends one action in the surface's session and resolves with the daemon's answer. A failure the
 * surface finds itself (no daemon, a session it could not create) is an error answer too, never an
 * exception: the model reads it as a reply.
 */
export type SendAction = (call: ToolAction) => Promise<DaemonAnswer>;

export interface RunToolOptions {
  /** Which tools the surface offers as steps of a batch (all of the catalogue when not given). */
  readonly steps?: StepPolicy;
  /** The surface's own "What to do" for these codes of a failed action, instead of the catalogue's tool hints. */
  readonly hints?: Readonly<Partial<Record<ErrorCode, string>>>;
}

/** What one tool call came to: the reply a model reads, and for a failure its code and a pause's reason. */
export type ToolCallResult =
  | { readonly ok: true; readonly tool: ToolSpec; readonly reply: ToolReply }
  | { readonly ok: false; readonly code: ErrorCode; readonly reason?: string; readonly reply: ToolReply };

function failed(code: ErrorCode, reply: ToolReply, reason?: string): ToolCallResult {
  return { ok: false, code, reply, ...(reason === undefined ? {} : { reason }) };
}

/** Runs the tool `name` with `args` through `send`, and says what came of it. */
export async function runTool(
  name: string,
  args: Record<string, unknown>,
  send: SendAction,
  options: RunToolOptions = {},
): Promise<ToolCallResult> {
  const tool = TOOLS_BY_NAME.get(name);
  if (tool === undefined)
    return failed(
      'UNKNOWN_ACTION',
      errorReply({ code: 'UNKNOWN_ACTION', message: `no tool named "${name}"` }),
    );
  if (tool.action === 'batch') return runBatch(tool, args, send, options);
  const checked = checkToolArgs(tool, args);
  if (!checked.ok) return failed('BAD_REQUEST', checked.reply);
  const { params } = checked;
  const answer = await send({ tool, params, timeoutMs: toolTimeoutMs(tool, params) });
  const outcome = outcomeOf(tool.action, answer);
  if (!outcome.ok) {
    const { error } = outcome;
    const hint = options.hints?.[error.code];
    const reply = hint === undefined ? errorReply(error) : errorReply({ ...error, hint }, false);
    return failed(error.code, reply, error.reason);
  }
  return { ok: true, tool, reply: successReply(tool.name, params, outcome.data) };
}

/** A call of the batch tool: every step checked as its tool's own call, then one batch action. */
async function runBatch(
  tool: ToolSpec,
  args: Record<string, unknown>,
  send: SendAction,
  options: RunToolOptions,
): Promise<ToolCallResult> {
  const batch = checkBatchArgs(args, options.steps);
  if (!batch.ok) return failed('BAD_REQUEST', batch.reply);
  const answer = await send({ tool, params: batch.params, timeoutMs: batch.timeoutMs });
  const outcome = outcomeOf('batch', answer);
  if (!outcome.ok) {
    const error = { ...outcome.error, message: stepNamedByTool(batch, outcome.error.message) };
    const hint = options.hints?.[error.code];
    const reply = hint === undefined ? errorReply(error) : errorReply({ ...error, hint }, false);
    return failed(error.code, reply, error.reason);
  }
  return { ok: true, tool, reply: batchReply(batch, outcome.data) };
}
