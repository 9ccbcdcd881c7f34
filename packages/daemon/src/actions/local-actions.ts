/**
 * The actions the daemon answers itself (routing 'local' in the protocol's action table), as one total
 * table: a local action without its entry here is a compile error. Each entry says whether it works on
 * a session the request names (looked up, and refused with the catalogue's codes, before it runs) or
 * on none.
 */
import { actionDef, type ActionName, type ActionParams, type ForwardedAction } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { runBatch } from './batch';
import { listDownloads } from './download-steps';
import { debugLast, debugStatus } from './debug';
import {
  heldByUser,
  sessionBind,
  sessionClose,
  sessionCreate,
  sessionList,
  sessionResume,
  sessionUnbind,
  tabList,
} from './session-actions';
import type { CommandContext, CommandRouteDeps } from './types';

/** The actions with routing 'local': no driver sees them. */
export type LocalAction = Exclude<ActionName, ForwardedAction>;

export function isLocalAction(action: ActionName): action is LocalAction {
  return actionDef(action).routing === 'local';
}

type Answer = DriverOutcome | Promise<DriverOutcome>;

/** A local action's handler: on no session, or on the session the request names (required). */
export type LocalHandler<A extends LocalAction> =
  | {
      readonly session: 'none';
      run(deps: CommandRouteDeps, ctx: CommandContext, params: ActionParams<A>): Answer;
    }
  | {
      readonly session: 'required';
      run(
        deps: CommandRouteDeps,
        ctx: CommandContext,
        params: ActionParams<A>,
        session: SessionRecord,
      ): Answer;
    };

/**
 * pairing.issue — for the native host's zero-touch pairing and `bproxy pair`: the caller already holds
 * the daemon token, which is worth more than a code; the code is logged as issued, never itself. The
 * host asks for a direct code, which the claim throttle does not hold (it cannot be guessed).
 */
function pairingIssue(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  params: ActionParams<'pairing.issue'>,
): DriverOutcome {
  const kind = params.kind ?? 'typed';
  const { code, expiresAt } = deps.issuePairingCode(kind);
  deps.logger.info({ event: 'pairing_code_issued', id: ctx.request.id, kind });
  return { ok: true, data: { code, expiresAt, port: deps.port() } };
}

export const LOCAL_ACTIONS: { readonly [A in LocalAction]: LocalHandler<A> } = {
  'session.create': { session: 'none', run: (deps, _ctx, params) => sessionCreate(deps, params) },
  'session.list': { session: 'none', run: (deps, ctx) => sessionList(deps, ctx.request.session) },
  'session.bind': {
    session: 'required',
    run: (deps, _ctx, params, session) => sessionBind(deps, session, params),
  },
  'session.unbind': {
    session: 'required',
    run: (deps, _ctx, _params, session) => sessionUnbind(deps, session),
  },
  'session.resume': {
    session: 'required',
    run: (deps, _ctx, _params, session) => sessionResume(deps, session),
  },
  'session.close': {
    session: 'required',
    run: (deps, ctx, _params, session) => heldByUser(session) ?? sessionClose(deps, ctx, session),
  },
  'tab.list': { session: 'required', run: (deps, _ctx, _params, session) => tabList(deps, session) },
  batch: { session: 'required', run: runBatch },
  downloads: { session: 'required', run: (deps, _ctx, _params, session) => listDownloads(deps, session) },
  'pairing.issue': { session: 'none', run: pairingIssue },
  'debug.last': { session: 'none', run: (deps, ctx, params) => debugLast(deps, params, ctx.request.session) },
  'debug.status': { session: 'none', run: (deps, ctx) => debugStatus(deps, ctx.request.session) },
};
