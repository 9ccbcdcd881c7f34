/**
 * Approvals at the one place every action passes, before anything is forwarded:
 * - click / press Enter (`approvalGate`, in runTabAction before the tab steps): submit/send/delete
 *   from the page layer's recognition of the element (a forwarded `inspect` with the daemon's own
 *   `approval` flag, through the same tab queue and deadline);
 * - upload, drop, state.save and cookies.list (`approvalStep`, a tab step after their own doors: the
 *   allowed folders, STATE_NOT_ALLOWED), and a first visit by navigate or tab.open (`firstVisitGate`),
 *   known from the action itself.
 * The class decision (decide.ts) allows, denies, or asks; "ask" refuses with APPROVAL_REQUIRED and
 * records the approval (book.ts), and where no person can answer (no extension connected) it is denied
 * with how to allow it.
 */
import {
  SensitiveTargetSchema,
  type ActionClass,
  type ActionName,
  type ApprovalField,
  type RequestId,
  type SensitiveTarget,
} from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { forward, type ForwardTarget } from '../actions/dispatch';
import { failed } from '../actions/outcome';
import type { TabStep } from '../actions/tab-steps';
import type { CommandContext, CommandRouteDeps } from '../actions/types';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { CLASS_WORDS, browserKind, classDecision, isFirstVisit, originOf } from './decide';

/** The actions whose class is known without reading the page (gated after their own doors). */
const ACTION_CLASSES: Partial<Record<ActionName, ActionClass>> = {
  upload: 'upload',
  drop: 'upload',
  'state.save': 'state_export',
  'cookies.list': 'state_export',
};

/** The actions `approvalStep` gates: those above, and navigate's first visit. */
export const STEP_GATED: readonly ActionName[] = [
  ...(Object.keys(ACTION_CLASSES) as ActionName[]),
  'navigate',
];

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

/** What the gate needs to know of one request. */
interface Asking {
  deps: CommandRouteDeps;
  action: ActionName;
  session: SessionRecord | null;
  tab: TabRecord | null;
  /** The origin the action is at (a first visit: the one it goes to); null: a page with none. */
  origin: string | null;
  /** "The same action" for the book: an Allow once is consumed by the retry with this key. */
  key: string;
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
 * A gated action whose class is not allowed: denied (POLICY_DENIED), or asked (APPROVAL_REQUIRED) —
 * null when a person's "Allow once" of this very action is consumed now.
 */
function hold(asking: Asking, gated: Gated, decision: 'deny' | 'ask'): DriverOutcome | null {
  const { deps, action, session } = asking;
  const where_ = asking.origin ?? 'this page';
  const what = `${action}${gated.name === '' ? '' : ` on "${gated.name}"`} (${CLASS_WORDS[gated.class]}) at ${where_}`;
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
  const attempt = deps.approvals.attempt({
    key: asking.key,
    session: session?.id ?? '',
    tab: asking.tab?.handle ?? '',
    action,
    class: gated.class,
    origin: where_,
    name: gated.name,
    ...(gated.why === undefined ? {} : { why: gated.why }),
    fields: gated.fields,
    at: deps.clock.now(),
  });
  if (attempt.state === 'allowed') {
    deps.logger.info({ event: 'approval_used', session: session?.id, class: gated.class, origin: where_ });
    return null;
  }
  const details = { approval: attempt.approval.id, class: gated.class, origin: where_, name: gated.name };
  if (attempt.state === 'denied')
    return failed('APPROVAL_REQUIRED', `a person denied ${what}; it was not run (a retry asks again)`, {
      details,
    });
  deps.logger.info({ event: 'approval_asked', session: session?.id, class: gated.class, origin: where_ });
  return failed(
    'APPROVAL_REQUIRED',
    `${what} waits for a person's decision in the side panel; it was not run. Retry the same action after they allow it`,
    { details },
  );
}

/** The book's key of an action on a tab: session, tab, action, target as named, key, files or path. */
function tabKey(session: SessionRecord, tab: TabRecord, action: ActionName, params: Record<string, unknown>) {
  return JSON.stringify([
    session.id,
    tab.handle,
    action,
    params.target ?? null,
    params.key ?? null,
    params.files ?? params.path ?? null,
  ]);
}

/**
 * click / press Enter on an element: the refusal of a sensitive one (APPROVAL_REQUIRED, POLICY_DENIED),
 * or null to go on (not sensitive, allowed, or a person's "Allow once" consumed now).
 */
export async function approvalGate(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  tab: TabRecord,
  client: ClientRecord,
  params: Record<string, unknown>,
  resolveTarget: () => ForwardTarget | DriverOutcome,
): Promise<DriverOutcome | null> {
  const action = ctx.request.action;
  const how = recognisedHow(action, params);
  if (how === null) return null;
  const policy = deps.policy.inForce();
  const origin = originOf(tab.url);
  const where = browserKind(deps.launchers, client);
  const decide = (cls: ActionClass) => classDecision(policy, origin, cls, where);
  // Nothing to ask about: no read of the page.
  if (PAGE_CLASSES.every((cls) => decide(cls) === 'allow')) return null;
  const seen = await recognise(deps, ctx, session, resolveTarget, params.target, how);
  if ('ok' in seen) return seen;
  if (seen.class === undefined) return null;
  const decision = decide(seen.class);
  if (decision === 'allow') return null;
  const gated: Gated = {
    class: seen.class,
    name: seen.name,
    ...(seen.why === undefined ? {} : { why: seen.why }),
    fields: seen.fields,
  };
  const key = tabKey(session, tab, action, params);
  return hold({ deps, action, session, tab, origin, key }, gated, decision);
}

/**
 * tab.open and navigate (in a tab or opening one) to an origin no rule of the policy names, when the
 * first_visit class is not allowed there: the refusal, or null. A navigate within the tab's own origin
 * is no first visit. The key is the session and the origin: navigate and tab.open share an Allow once.
 */
export function firstVisitGate(
  deps: CommandRouteDeps,
  action: ActionName,
  session: SessionRecord | null,
  tab: TabRecord | null,
  client: ClientRecord,
  url: string,
): DriverOutcome | null {
  const policy = deps.policy.inForce();
  const origin = originOf(url);
  if (origin === null || (tab !== null && originOf(tab.url) === origin)) return null;
  if (policy !== null && !isFirstVisit(policy, url)) return null;
  const decision = classDecision(policy, origin, 'first_visit', browserKind(deps.launchers, client));
  if (decision === 'allow') return null;
  const key = JSON.stringify([session?.id ?? null, 'first_visit', origin]);
  return hold(
    { deps, action, session, tab, origin, key },
    { class: 'first_visit', name: '', fields: [] },
    decision,
  );
}

/** The files an upload or drop would hand the page, by name (what the person is asked about). */
function filesOf(params: Record<string, unknown>): ApprovalField[] {
  if (!Array.isArray(params.files)) return [];
  return (params.files as unknown[]).slice(0, 30).map((f) => {
    const name = typeof f === 'object' && f !== null ? (f as { name?: unknown }).name : undefined;
    return { name: 'file', type: 'file', value: String(name ?? '').slice(0, 200) };
  });
}

/**
 * upload, drop, state.save, cookies.list — after their own doors, which refuse first and ask nobody
 * (a path outside the allowed folders, cookies of the user's Chrome not allowed in user-chrome.json) —
 * and navigate's first visit (after the URL check and the site policy's rule).
 */
export const approvalStep: TabStep = {
  prepare(sc, params) {
    const action = sc.ctx.request.action;
    if (action === 'navigate') {
      const url = typeof params.url === 'string' ? params.url : '';
      const refused = firstVisitGate(sc.deps, action, sc.session, sc.tab, sc.client, url);
      return refused ?? { params };
    }
    const cls = ACTION_CLASSES[action];
    if (cls === undefined) return { params };
    const origin = originOf(sc.tab.url);
    const decision = classDecision(
      sc.deps.policy.inForce(),
      origin,
      cls,
      browserKind(sc.deps.launchers, sc.client),
    );
    if (decision === 'allow') return { params };
    const key = tabKey(sc.session, sc.tab, action, sc.params);
    const asking = { deps: sc.deps, action, session: sc.session, tab: sc.tab, origin, key };
    return hold(asking, { class: cls, name: '', fields: filesOf(params) }, decision) ?? { params };
  },
};
