/**
 * Turning a tool call into an action call: the arguments checked against the tool (params the surface
 * owns are refused, params the tool requires must be there) and against the action's schema, with
 * messages that name the argument; and the deadline each tool gets.
 */
import { ACTION_FACTS, DEFAULT_TIMEOUT_MS, parseParams, type ActionFacts } from '@bproxy/protocol';
import type { ToolSpec } from './catalogue';
import { localError, type ToolReply } from './errors';

export type CheckedToolCall =
  | { readonly ok: true; readonly params: Record<string, unknown> }
  | { readonly ok: false; readonly reply: ToolReply };

const NAVIGATION_TIMEOUT_MS = 60_000;

/**
 * A screenshot through MCP is at most this wide unless asked otherwise: the common vision models take
 * an image of 1280 × 800 (about a megapixel, under their 1568-pixel edge) without scaling it again, and
 * a page captured at a device pixel ratio of 2 would be twice that.
 */
export const MCP_SCREENSHOT_MAX_WIDTH = 1280;

function usage(message: string, hint: string): CheckedToolCall {
  return { ok: false, reply: localError('BAD_REQUEST', message, hint) };
}

/**
 * The action params of a call to `spec` with `args`. Params the tool hides are the surface's own (the
 * browser a session's tabs open in is chosen when the session is created) and are refused here.
 */
export function checkToolArgs(spec: ToolSpec, args: Record<string, unknown>): CheckedToolCall {
  const hidden = (spec.hide ?? []).filter((key) => key in args);
  if (hidden.length > 0)
    return usage(`${spec.name} does not take ${hidden.join(', ')}`, 'Remove it; the server sets it itself');
  const missing = (spec.require ?? []).filter((key) => !(key in args));
  if (missing.length > 0) return usage(`${spec.name} needs ${missing.join(', ')}`, 'Add it and call again');
  const params: Record<string, unknown> = { ...args };
  if (spec.action === 'screenshot' && params.maxWidth === undefined)
    params.maxWidth = MCP_SCREENSHOT_MAX_WIDTH;
  const checked = parseParams(spec.action, params);
  if (!checked.ok)
    return usage(
      checked.error.message.replace(/\bparams\./g, '').replace(/\bparams:/g, 'arguments:'),
      'Fix the argument named here and call again',
    );
  return { ok: true, params };
}

/** How long a call of `spec` may take: navigations (the actions paced as one) longer, a wait as long as it asks for and then some. */
export function toolTimeoutMs(spec: ToolSpec, params: Record<string, unknown>): number {
  if (spec.action === 'wait') {
    const wait = typeof params.timeoutMs === 'number' ? params.timeoutMs : 10_000;
    return Math.max(DEFAULT_TIMEOUT_MS, wait + 10_000);
  }
  const facts: ActionFacts = ACTION_FACTS[spec.action];
  if (facts.pacing === 'navigate') return NAVIGATION_TIMEOUT_MS;
  return DEFAULT_TIMEOUT_MS;
}
