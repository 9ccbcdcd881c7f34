/**
 * The approvals' requests, from the extension's authenticated user channel only (user-requests.ts
 * refuses every other client): what waits, and a person's decision. "Always on this site" writes the
 * class decision for the origin into policy.json through the policy store, then allows this one once.
 */
import {
  makeError,
  type ApprovalsView,
  type BproxyError,
  type SitePolicy,
  type UserRequest,
} from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { CommandRouteDeps } from '../actions/types';

export type ApprovalRequest = Extract<UserRequest, { kind: 'approvals' | 'approval_decide' }>;

export function isApprovalRequest(request: UserRequest): request is ApprovalRequest {
  return request.kind === 'approvals' || request.kind === 'approval_decide';
}

function view(deps: CommandRouteDeps): ApprovalsView {
  return { kind: 'approvals', pending: deps.approvals.pending() };
}

export function approvalRequest(
  deps: CommandRouteDeps,
  record: ClientRecord,
  request: ApprovalRequest,
): { ok: true; result: ApprovalsView } | { ok: false; error: BproxyError } {
  if (request.kind === 'approvals') return { ok: true, result: view(deps) };
  const approval = deps.approvals.get(request.id);
  if (!approval || approval.state !== 'pending')
    return { ok: false, error: makeError('BAD_REQUEST', `no approval ${request.id} waits for a decision`) };
  if (request.decision === 'always') {
    const now = deps.policy.source.current();
    if (!('policy' in now))
      return {
        ok: false,
        error: makeError('INTERNAL_ERROR', `the site policy is unusable (${now.broken}); nothing was saved`),
      };
    if (!approval.origin.startsWith('http'))
      return {
        ok: false,
        error: makeError('BAD_REQUEST', 'this page has no origin to remember; allow it once'),
      };
    const entry = now.policy.origins[approval.origin] ?? {};
    const next: SitePolicy = {
      ...now.policy,
      origins: {
        ...now.policy.origins,
        [approval.origin]: {
          ...entry,
          classes: { ...entry.classes, [approval.class]: 'allow' },
          updatedAt: deps.clock.now(),
        },
      },
    };
    try {
      deps.policy.source.save(next);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { ok: false, error: makeError('INTERNAL_ERROR', `the site policy was not saved: ${why}`) };
    }
  }
  deps.approvals.decide(request.id, request.decision !== 'deny');
  deps.logger.info({
    event: 'approval_decided',
    decision: request.decision,
    class: approval.class,
    origin: approval.origin,
    ws_client: record.label,
  });
  return { ok: true, result: view(deps) };
}
