/**
 * The forwarded path, written once for every driver: admission (bounded), pacing, per-tab
 * serialization, element-handle resolution at the request's turn, the forwarded envelope with the
 * daemon-owned raw tab id, the wait for the driver's answer, and validation of that answer.
 */
import { TAKE_OVER_HINT } from '@bproxy/protocol';
import {
  actionDef,
  driverResultSchema,
  makeError,
  parseDriverValue,
  type ActionName,
  type BproxyForwardedRequest,
  type ElementTarget,
  type SessionId,
  type TabHandle,
} from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import { reserveSlot } from '../sessions/pacing';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from './outcome';
import type { CommandContext, CommandRouteDeps } from './types';
import type { SessionRecord, TabRecord } from '../sessions/sessions';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Replaces element handles in params with the targets they stand for. */
function resolveTargets(
  deps: CommandRouteDeps,
  session: SessionId,
  tab: TabHandle,
  params: Record<string, unknown>,
): { ok: true; params: Record<string, unknown> } | { ok: false; outcome: DriverOutcome } {
  let out = params;
  // `target`, and `to` (where drag drops): each handle becomes the target it stands for.
  for (const key of ['target', 'to'] as const) {
    const value = params[key];
    if (typeof value !== 'string') continue;
    const resolved = deps.handles.resolve(session, tab, value as Parameters<typeof deps.handles.resolve>[2]);
    if (!resolved.ok) return { ok: false, outcome: failed(resolved.code, resolved.message) };
    out = { ...out, [key]: resolved.target satisfies ElementTarget };
  }
  return { ok: true, params: out };
}

/**
 * A TIMEOUT decided before sending (on arrival, in pacing, behind the same tab), logged like the ones
 * decided in flight (browsers/forwarded-requests.ts): every TIMEOUT an agent sees has its `timeout` event.
 */
export function timeoutOutcome(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  stage: 'arrival' | 'pacing' | 'queue',
  message: string,
): DriverOutcome {
  const elapsed = Math.round(deps.clock.monotonic() - ctx.receivedMono);
  deps.logger.info({ id: ctx.request.id, event: 'timeout', stage, elapsed_ms: elapsed });
  return failed('TIMEOUT', message);
}

/** Waits for the session's pacing slot. Returns a TIMEOUT outcome when the slot is past the deadline. */
async function pace(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
): Promise<DriverOutcome | null> {
  const category = actionDef(ctx.request.action).pacing;
  if (!category) return null;
  const now = deps.clock.monotonic();
  const delay = reserveSlot(session, category, now, ctx.deadlineMono, deps.random);
  if (delay === null) {
    return timeoutOutcome(
      deps,
      ctx,
      'pacing',
      `pacing (${session.pacing}) would delay this ${category} action past its deadline`,
    );
  }
  if (delay > 0) {
    deps.logger.info({ id: ctx.request.id, event: 'pacing_wait', delay_ms: delay });
    if (ctx.trail) ctx.trail.waitedMs = delay;
    await sleep(delay);
  }
  return null;
}

export interface ForwardTarget {
  client: ClientRecord;
  /** Absent for actions that address a browser rather than a tab. */
  tab?: TabRecord;
}

/**
 * Sends one forwarded request and returns the driver's validated outcome. `resolveTarget` runs at the
 * request's turn in its tab queue, so it sees the state left by the commands queued before it.
 */
export async function forward(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord | null,
  resolveTarget: () => ForwardTarget | DriverOutcome,
  params: Record<string, unknown>,
): Promise<DriverOutcome> {
  if (!deps.pending.admit()) return failed('OVERLOADED', 'too many requests in flight (100); retry shortly');
  try {
    if (session) {
      const paced = await pace(deps, ctx, session);
      if (paced) return paced;
    }
    const first = resolveTarget();
    if ('ok' in first) return first;
    const queueKey = first.tab
      ? `${first.tab.clientKey}#${first.tab.rawTabId}`
      : `client:${first.client.key}:${ctx.request.id}`;
    const outcome = await deps.queues.run(queueKey, () =>
      sendAtTurn(deps, ctx, session, resolveTarget, params),
    );
    return validateOutcome(ctx.request.action, outcome);
  } finally {
    deps.pending.release();
  }
}

async function sendAtTurn(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord | null,
  resolveTarget: () => ForwardTarget | DriverOutcome,
  params: Record<string, unknown>,
): Promise<DriverOutcome> {
  if (deps.clock.monotonic() >= ctx.deadlineMono) {
    return timeoutOutcome(
      deps,
      ctx,
      'queue',
      'the deadline passed while waiting for earlier commands on this tab; it was not sent',
    );
  }
  // State may have changed while this request waited (a pause, a close, a navigation).
  if (session && session.paused) {
    return failed('HUMAN_REQUIRED', `session ${session.id} is paused: ${session.pauseReason ?? ''}`, {
      reason: session.pauseReason ?? '',
      ...(session.heldByUser === true ? { hint: TAKE_OVER_HINT } : {}),
    });
  }
  const target = resolveTarget();
  if ('ok' in target) return target;
  if (ctx.trail && target.tab) ctx.trail.tab = target.tab;
  let forwardedParams = params;
  if (session && target.tab) {
    const resolved = resolveTargets(deps, session.id, target.tab.handle, params);
    if (!resolved.ok) return resolved.outcome;
    forwardedParams = resolved.params;
  }
  const { client } = target;
  if (!client.transport && !deps.clients.inGrace(client, deps.graceMs)) {
    return failed('BROWSER_DISCONNECTED', `browser "${client.name}" is not connected`);
  }
  const { session: _agentSession, ...rest } = ctx.request;
  // The driver checks the deadline against its own wall clock: hand it what is left on ours, so a
  // wall-clock jump between the agent's send and now does not change when the request expires.
  const left = Math.max(0, Math.floor(ctx.deadlineMono - deps.clock.monotonic()));
  const request: BproxyForwardedRequest = {
    ...rest,
    params: forwardedParams,
    deadline: deps.clock.now() + left,
  };
  if (session) request.session = session.id;
  if (target.tab) {
    const waiver = target.tab.humanWaiver;
    request.target = { tabId: target.tab.rawTabId, ...(waiver === undefined ? {} : { humanWaiver: waiver }) };
  }
  deps.logger.info({
    id: request.id,
    event: 'forwarded',
    ws_client: client.label,
    tab: target.tab?.rawTabId,
  });
  return deps.pending.send(client.key, request, ctx.deadlineMono, () => deps.clients.send(client, request));
}

function validateOutcome(action: ActionName, outcome: DriverOutcome): DriverOutcome {
  if (!outcome.ok) {
    // Category, retry and hint always come from our catalogue, whatever the driver sent.
    const { code, message, reason, details } = outcome.error;
    const extra: { reason?: string; details?: Record<string, unknown> } = {};
    if (reason !== undefined) extra.reason = reason;
    if (details !== undefined) extra.details = details;
    return { ok: false, error: makeError(code, message, extra) };
  }
  const parsed = parseDriverValue(driverResultSchema(action), outcome.data, `${action} result`);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return { ok: true, data: parsed.value, ...(outcome.news === undefined ? {} : { news: outcome.news }) };
}
