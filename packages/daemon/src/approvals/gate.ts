/**
 * Approvals at the one place every action passes (runTabAction), before anything is forwarded. The
 * class of an acting action: submit/send/delete from the page layer's recognition of its element (a
 * forwarded `inspect` with the daemon's own `approval` flag, through the same tab queue and deadline),
 * upload and state export from the action itself. The class decision (decide.ts) allows, denies, or
 * asks; "ask" refuses with APPROVAL_REQUIRED and records the approval (book.ts), and where no person
 * can answer (no extension connected) it is denied with how to allow it.
 */
import {
  SensitiveTargetSchema,
  type ActionClass,
  type ActionName,
  type ApprovalField,
  type RequestId,
  type SensitiveTarget,
} from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { forward, type ForwardTarget } from '../actions/dispatch';
import { failed } from '../actions/outcome';
import type { CommandContext, CommandRouteDeps } from '../actions/types';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { CLASS_WORDS, classDecision, originOf, type BrowserKind } from './decide';

/** The classes an action is known by without reading the page. */
// Not enforced yet: upload, download and state export (upload: 'upload', 'state.save' and
// 'cookies.list': 'state_export') keep their own doors (the allowed folders; STATE_NOT_ALLOWED in the
// user's Chrome) until their approvals are built; docs/security.md "Approvals" says so.
const ACTION_CLASSES: Partial<Record<ActionName, ActionClass>> = {};

const PAGE_CLASSES: readonly ActionClass[] = ['submit', 'send', 'delete'];

function recognisedHow(action: ActionName, params: Record<string, unknown>): 'click' | 'enter' | null {
  // Enter with no target goes to the focused element: the page layer reads that one.
  if (action === 'press' && params.key === 'Enter') return 'enter';
  if (params.target === undefined) return null;
  if (action === 'click') return 'click';
  return null;
}

interface Gated {
  class: ActionClass;
  name: string;
  why?: string;
  fields: ApprovalField[];
}

async function recognise(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  resolveTarget: () => ForwardTarget | DriverOutcome,
  target: unknown,
  how: 'click' | 'enter',
): Promise<SensitiveTarget | DriverOutcome> {
  const id =
    `${ctx.request.id.slice(0, 100)}.approval-${Math.floor(deps.random() * 2 ** 32).toString(36)}` as RequestId;
  const params = { target, approval: how };
  const read: CommandContext = {
    request: { ...ctx.request, id, action: 'inspect', params },
    deadlineMono: ctx.deadlineMono,
    receivedMono: deps.clock.monotonic(),
  };
  const answer = await forward(deps, read, session, resolveTarget, params);
  if (!answer.ok) return answer;
  const sensitive = SensitiveTargetSchema.safeParse((answer.data as { sensitive?: unknown }).sensitive);
  // A driver that did not recognise (an older page script) cannot vouch for the element: fail closed.
  if (!sensitive.success)
    return failed('INTERNAL_ERROR', 'the approvals check of the element failed; not run');
  return sensitive.data;
}

/**
 * The refusal of a gated action (APPROVAL_REQUIRED, POLICY_DENIED), or null to go on (allowed, or a
 * person's "Allow once" consumed now).
 */
export async function approvalGate(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  tab: TabRecord,
  client: { kind: 'extension' | 'cdp' },
  params: Record<string, unknown>,
  resolveTarget: () => ForwardTarget | DriverOutcome,
): Promise<DriverOutcome | null> {
  const action = ctx.request.action;
  const how = recognisedHow(action, params);
  const known = ACTION_CLASSES[action];
  if (how === null && known === undefined) return null;
  const now = deps.policy.source.current();
  const policy = 'policy' in now ? now.policy : null;
  const origin = originOf(tab.url);
  const where: BrowserKind = client.kind === 'extension' ? 'user' : 'launched';
  const decide = (cls: ActionClass) => classDecision(policy, origin, cls, where);
  let gated: Gated;
  if (known !== undefined) {
    if (decide(known) === 'allow') return null;
    gated = { class: known, name: '', fields: [] };
  } else {
    // Nothing to ask about: no read of the page.
    if (PAGE_CLASSES.every((cls) => decide(cls) === 'allow')) return null;
    const seen = await recognise(deps, ctx, session, resolveTarget, params.target, how ?? 'click');
    if ('ok' in seen) return seen;
    if (seen.class === undefined || decide(seen.class) === 'allow') return null;
    gated = {
      class: seen.class,
      name: seen.name,
      ...(seen.why === undefined ? {} : { why: seen.why }),
      fields: seen.fields,
    };
  }
  const where_ = origin ?? 'this page';
  const what = `${action}${gated.name === '' ? '' : ` on "${gated.name}"`} (${CLASS_WORDS[gated.class]}) at ${where_}`;
  const decision = decide(gated.class);
  const fix = `a person can allow it in policy.json ("classes": {"${gated.class}": "allow"}, for all or for this origin)`;
  if (decision === 'deny')
    return failed('POLICY_DENIED', `${what} is denied by the site policy; ${fix}`, {
      details: { origin: where_, rule: `class ${gated.class}: deny` },
    });
  const someone = deps.clients.connected().some((c) => c.kind === 'extension');
  if (!someone)
    return failed(
      'POLICY_DENIED',
      `${what} needs a person's approval and none can answer here (no extension connected), so it is denied; ${fix}, or connect the extension and retry`,
      { details: { origin: where_, rule: `class ${gated.class}: ask` } },
    );
  const key = JSON.stringify([
    session.id,
    tab.handle,
    action,
    params.target ?? null,
    params.key ?? null,
    params.files ?? params.path ?? null,
  ]);
  const attempt = deps.approvals.attempt({
    key,
    session: session.id,
    tab: tab.handle,
    action,
    class: gated.class,
    origin: where_,
    name: gated.name,
    ...(gated.why === undefined ? {} : { why: gated.why }),
    fields: gated.fields,
    at: deps.clock.now(),
  });
  if (attempt.state === 'allowed') {
    deps.logger.info({ event: 'approval_used', session: session.id, class: gated.class, origin: where_ });
    return null;
  }
  const details = { approval: attempt.approval.id, class: gated.class, origin: where_, name: gated.name };
  if (attempt.state === 'denied')
    return failed('APPROVAL_REQUIRED', `a person denied ${what}; it was not run (a retry asks again)`, {
      details,
    });
  deps.logger.info({ event: 'approval_asked', session: session.id, class: gated.class, origin: where_ });
  return failed(
    'APPROVAL_REQUIRED',
    `${what} waits for a person's decision in the side panel; it was not run. Retry the same action after they allow it`,
    { details },
  );
}
