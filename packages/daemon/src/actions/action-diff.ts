/**
 * `diff: true` on an acting action (click, fill, type, press, select, drag): after the action answered, the
 * daemon reads a snapshot diff of the whole page in the same tab (the scope of a plain `snapshot
 * --diff`, with the maxChars of the agent's latest whole-page diff read of the tab) and adds it to the answer as `diff`, saving the read an agent makes next. The snapshot goes
 * through the same forwarded path (admission, the tab's queue, the deadline) as a read of its own.
 */
import { ActionDiffSchema, makeError, type ActionName, type RequestId } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { forward, type ForwardTarget } from './dispatch';
import { mintFromResult } from './minting';
import type { CommandContext, CommandRouteDeps } from './types';

const DIFF_ACTIONS: ReadonlySet<ActionName> = new Set(['click', 'fill', 'type', 'press', 'select', 'drag']);

/** Whether the request asks for the diff its action causes; its `diff` param never reaches a driver. */
export function wantsActionDiff(action: ActionName, params: Record<string, unknown>): boolean {
  return DIFF_ACTIONS.has(action) && params.diff === true;
}

export function withoutDiff(params: Record<string, unknown>): Record<string, unknown> {
  const { diff: _diff, ...rest } = params;
  return rest;
}

/**
 * The snapshot an action's diff reads: the whole page, with the maxChars of the agent's latest
 * whole-page diff read of the tab (so that a page first read whole with `maxChars` is compared with
 * that read, not read whole a second time in the default scope).
 */
export function actionDiffParams(cap: number | null | undefined): { diff: true; maxChars?: number } {
  return typeof cap === 'number' ? { diff: true, maxChars: cap } : { diff: true };
}

export async function addActionDiff(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  tab: TabRecord,
  resolveTarget: () => ForwardTarget | DriverOutcome,
  outcome: DriverOutcome,
): Promise<DriverOutcome> {
  if (!outcome.ok || session.tabs.get(tab.handle) !== tab) return outcome;
  // Its own id (the driver's exactly-once ledger keys on ids), made of the characters ids may hold.
  const id =
    `${ctx.request.id.slice(0, 100)}.diff-${Math.floor(deps.random() * 2 ** 32).toString(36)}` as RequestId;
  const params = actionDiffParams(deps.handles.snapshots.wholeCap(session.id, tab.handle));
  const read: CommandContext = {
    request: { ...ctx.request, id, action: 'snapshot', params },
    deadlineMono: ctx.deadlineMono,
    receivedMono: deps.clock.monotonic(),
  };
  const snap = await forward(deps, read, session, resolveTarget, params);
  const data = outcome.data as Record<string, unknown>;
  if (!snap.ok) {
    const notice = `no diff: ${snap.error.code}: ${snap.error.message}`.slice(0, 300);
    return { ok: true, data: { ...data, diff: { kind: 'changes', snapshot: '', notice } } };
  }
  const minted = mintFromResult(deps, session, tab, 'snapshot', snap.data as Record<string, unknown>, params);
  const diff = ActionDiffSchema.safeParse({
    kind: minted.diff,
    snapshot: minted.snapshot,
    ...(typeof minted.notice === 'string' ? { notice: minted.notice } : {}),
  });
  if (!diff.success)
    return { ok: false, error: makeError('INTERNAL_ERROR', 'the action diff was malformed') };
  return { ok: true, data: { ...data, diff: diff.data } };
}
