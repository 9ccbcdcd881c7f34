/**
 * The session's notes in its next answer (see SessionNote): appended to the `notes` of a successful
 * result, or to the message of a failure, then forgotten. Only actions whose result takes notes carry
 * them (every action addressed to a session, but session.close, after which there is no session).
 */
import { resultTakesNotes, type BproxyRequest, type SessionId } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord, SessionRegistry } from './sessions';

function render(session: SessionRecord): string[] {
  const lines: string[] = [];
  for (const note of session.notes) {
    if (note.kind === 'fell_back' || note.kind === 'news') {
      lines.push(note.text);
      continue;
    }
    const tab = session.tabs.get(note.about);
    if (tab === undefined) continue;
    const opener = tab.openedBy === undefined ? 'a page' : `the page in ${tab.openedBy}`;
    lines.push(`${tab.handle} was opened by ${opener}: ${tab.url || 'about:blank'}`);
  }
  return lines;
}

export function withSessionNotes(
  sessions: SessionRegistry,
  request: BproxyRequest,
  outcome: DriverOutcome,
): DriverOutcome {
  if (request.session === undefined || !resultTakesNotes(request.action)) return outcome;
  const session = sessions.get(request.session as SessionId);
  if (session === undefined || session.notes.length === 0) return outcome;
  const notes = render(session);
  session.notes = [];
  if (notes.length === 0) return outcome;
  if (!outcome.ok) {
    const message = `${outcome.error.message} (${notes.join('; ')})`.slice(0, 4000);
    return { ok: false, error: { ...outcome.error, message } };
  }
  const data = outcome.data as Record<string, unknown>;
  const earlier = Array.isArray(data.notes) ? (data.notes as string[]) : [];
  return { ok: true, data: { ...data, notes: [...earlier, ...notes].slice(-20) } };
}
