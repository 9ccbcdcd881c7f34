/**
 * The Policy view's requests, from the extension's authenticated user channel only (user-requests.ts
 * refuses every other client): read the policy and what it refused, replace it, reset it. This is the
 * one door of the daemon that writes policy.json; no agent's action reaches it.
 */
import {
  DEFAULT_SITE_POLICY,
  makeError,
  type BproxyError,
  type PolicyView,
  type UserRequest,
} from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { CommandRouteDeps } from '../actions/types';

export type PolicyRequest = Extract<UserRequest, { kind: 'policy' | 'policy_set' | 'policy_reset' }>;

export function isPolicyRequest(request: UserRequest): request is PolicyRequest {
  return request.kind === 'policy' || request.kind === 'policy_set' || request.kind === 'policy_reset';
}

function view(deps: CommandRouteDeps): PolicyView {
  const now = deps.policy.source.current();
  return {
    kind: 'policy',
    policy: 'policy' in now ? now.policy : null,
    ...('broken' in now ? { broken: now.broken } : {}),
    refusals: deps.policy.refusals(),
  };
}

export function policyRequest(
  deps: CommandRouteDeps,
  record: ClientRecord,
  request: PolicyRequest,
): { ok: true; result: PolicyView } | { ok: false; error: BproxyError } {
  if (request.kind === 'policy') return { ok: true, result: view(deps) };
  try {
    deps.policy.source.save(request.kind === 'policy_reset' ? DEFAULT_SITE_POLICY : request.policy);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, error: makeError('INTERNAL_ERROR', `the site policy was not saved: ${why}`) };
  }
  if (request.kind === 'policy_reset') deps.policy.clearRefusals();
  deps.logger.info({ event: 'site_policy_changed', by: 'user', how: request.kind, ws_client: record.label });
  return { ok: true, result: view(deps) };
}
