/**
 * The `batch` tool: several tools of the surface in one call, as the daemon's `batch` action runs them
 * (in order, in the surface's session, each paced and checked as if alone, stopping at the first
 * failure). A step names a tool and its arguments, checked here as that tool's own call would be —
 * hidden params refused, required ones needed, a tool the surface does not offer refused — then sent
 * as its action; the reply is each step's own one-line reply, numbered.
 */
import { BATCH_MAX_STEPS, MAX_DEADLINE_MS } from '@bproxy/protocol';
import { TOOLS_BY_NAME, type ToolSpec } from './catalogue';
import { localError, type ToolReply } from './errors';
import { joinParts, replyParts } from './replies';
import { UNTRUSTED_OPEN } from './untrusted';
import { checkToolArgs, toolTimeoutMs } from './tool-call';

/** The batch tool's input schema, as a model is shown it: steps of tool names and their arguments. */
export const BATCH_INPUT_SCHEMA = {
  type: 'object' as const,
  properties: {
    steps: {
      type: 'array',
      items: {
        type: 'object',
        properties: { action: { type: 'string' }, params: { type: 'object' } },
        required: ['action'],
        additionalProperties: false,
      },
      description: 'Each {action: a tool name, params: its arguments}',
    },
  },
  required: ['steps'],
  additionalProperties: false,
};

/** Whether the surface offers `spec` as a step: null when it does, else the refusal a model reads. */
export type StepPolicy = (spec: ToolSpec) => ToolReply | null;

export interface CheckedBatch {
  readonly ok: true;
  readonly params: { steps: { action: string; params: Record<string, unknown> }[] };
  readonly tools: readonly ToolSpec[];
  readonly stepParams: readonly Record<string, unknown>[];
  readonly timeoutMs: number;
}

function refuse(
  message: string,
  hint = 'Fix the step named here and call again',
): {
  ok: false;
  reply: ToolReply;
} {
  return { ok: false, reply: localError('BAD_REQUEST', message, hint) };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The batch action's params for a call of the batch tool with `args`, every step checked first. */
export function checkBatchArgs(
  args: Record<string, unknown>,
  policy: StepPolicy | undefined,
): CheckedBatch | { ok: false; reply: ToolReply } {
  const extra = Object.keys(args).filter((key) => key !== 'steps');
  if (extra.length > 0) return refuse(`batch takes steps only, not ${extra.join(', ')}`);
  const steps = args.steps;
  if (!Array.isArray(steps) || steps.length === 0 || steps.length > BATCH_MAX_STEPS)
    return refuse(`steps: a list of 1 to ${BATCH_MAX_STEPS} {action, params}`);
  const tools: ToolSpec[] = [];
  const stepParams: Record<string, unknown>[] = [];
  let timeoutMs = 0;
  for (const [index, step] of steps.entries()) {
    const at = `step ${index + 1}`;
    if (!isObject(step) || typeof step.action !== 'string')
      return refuse(`${at}: expected {action: a tool name, params}`);
    const unknown = Object.keys(step).filter((key) => key !== 'action' && key !== 'params');
    if (unknown.length > 0) return refuse(`${at}: unknown field(s) ${unknown.join(', ')}`);
    const spec = TOOLS_BY_NAME.get(step.action);
    if (spec === undefined || spec.action === 'batch')
      return refuse(
        `${at}: no tool named ${JSON.stringify(step.action.slice(0, 64))}`,
        'Name a tool of tools/list',
      );
    const refused = policy?.(spec);
    if (refused) return { ok: false, reply: refused };
    const raw = step.params ?? {};
    if (!isObject(raw)) return refuse(`${at} (${spec.name}): params must be an object`);
    const checked = checkToolArgs(spec, raw);
    if (!checked.ok) {
      const first = checked.reply.content[0];
      const text = (first?.type === 'text' ? first.text : '').replace(/^BAD_REQUEST: /, '');
      return {
        ok: false,
        reply: {
          ...checked.reply,
          content: [{ type: 'text', text: `BAD_REQUEST: ${at} (${spec.name}): ${text}` }],
        },
      };
    }
    tools.push(spec);
    stepParams.push(checked.params);
    timeoutMs += toolTimeoutMs(spec, checked.params);
  }
  return {
    ok: true,
    params: { steps: tools.map((spec, index) => ({ action: spec.action, params: stepParams[index] ?? {} })) },
    tools,
    stepParams,
    timeoutMs: Math.min(timeoutMs, MAX_DEADLINE_MS),
  };
}

/** The reply to a batch that ran: each step's own reply, numbered; images follow the text. */
export function batchReply(batch: CheckedBatch, data: unknown): ToolReply {
  const steps = isObject(data) && Array.isArray(data.steps) ? data.steps : [];
  const lines: string[] = [];
  const images: ToolReply['content'] = [];
  for (const [index, step] of steps.entries()) {
    const spec = batch.tools[index];
    if (spec === undefined || !isObject(step)) continue;
    const reply = replyParts(spec.name, batch.stepParams[index] ?? {}, step.data);
    const blocks = 'content' in reply ? reply.content : [{ type: 'text' as const, text: joinParts(reply) }];
    for (const block of blocks) {
      // A step's fence starts on a line of its own, after its number.
      if (block.type === 'text')
        lines.push(`${index + 1}.${block.text.startsWith(UNTRUSTED_OPEN) ? '\n' : ' '}${block.text}`);
      else images.push(block);
    }
  }
  return { content: [{ type: 'text', text: lines.join('\n') }, ...images] };
}

/** A failed batch's message names its step by tool, as the model called it, not by action. */
export function stepNamedByTool(batch: CheckedBatch, message: string): string {
  return message.replace(/^step (\d+) \([^)]*\)/, (whole, n: string) => {
    const spec = batch.tools[Number(n) - 1];
    return spec === undefined ? whole : `step ${n} (${spec.name})`;
  });
}
