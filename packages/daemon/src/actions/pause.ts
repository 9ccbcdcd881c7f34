/** Pausing a session when its driver answers HUMAN_REQUIRED, for tab.open and every tab action alike. */
import { HumanDetectionSchema, type BproxyError } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { recordSessionEvent } from './activity-trail';
import type { CommandContext, CommandRouteDeps } from './types';

/**
 * The driver answered HUMAN_REQUIRED: the session is paused with the driver's message as the reason,
 * and every forwarded action is refused until it is resumed. `named`: the agent does not know the
 * session yet (tab.open created it), so the answer says which one to resume. `tab`: the tab the
 * driver checked; with what it found (error.details) the daemon can waive that check on resume.
 */
export function pauseForHuman(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  error: BproxyError,
  named: boolean,
  tab?: TabRecord,
): DriverOutcome {
  const found = HumanDetectionSchema.safeParse(error.details);
  deps.sessions.pause(
    session,
    error.message,
    tab !== undefined && found.success ? { tab, found: found.data } : undefined,
  );
  deps.logger.info({ id: ctx.request.id, event: 'session_paused', session: session.id });
  recordSessionEvent(deps, session, 'pause', error.message);
  if (!named) return { ok: false, error: { ...error, reason: error.message } };
  const message = `${error.message} (session ${session.id} is paused)`;
  return {
    ok: false,
    error: { ...error, message, reason: error.message, details: { ...error.details, session: session.id } },
  };
}
