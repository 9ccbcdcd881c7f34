/**
 * The daemon's part of the network read and the action news: what it adds to the forwarded params
 * (the user's `revealSecrets`, never the agent's), the HAR path checked before the browser is asked,
 * the files written from the driver's answer, and the news line an action's driver sent, said in the
 * session's next answer (this one) as a note.
 */
import type { ActionName, DriverResult } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from '../actions/outcome';
import type { CommandRouteDeps } from '../actions/types';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { sessionRules } from '../files/allowed-folders';
import { allowedPath, bodyResult, writeHar } from './network-files';

export type Prepared =
  { ok: true; params: Record<string, unknown>; harPath?: string } | { ok: false; outcome: DriverOutcome };

const reveal = (deps: CommandRouteDeps) =>
  deps.networkSettings.revealSecrets ? { revealSecrets: true } : {};

/** The params network.get and network.har are forwarded with; any other action's are unchanged. */
export function prepareNetworkRead(
  deps: CommandRouteDeps,
  session: SessionRecord,
  action: ActionName,
  params: Record<string, unknown>,
): Prepared {
  if (action === 'network.get') return { ok: true, params: { ...params, ...reveal(deps) } };
  if (action !== 'network.har') return { ok: true, params };
  const where = allowedPath(sessionRules(session, deps.files), String(params.file));
  if (!where.ok) return where;
  return { ok: true, params: reveal(deps), harPath: where.path };
}

/** network.get's body and network.har's file, written from the driver's answer. */
export function finishNetworkRead(
  deps: CommandRouteDeps,
  session: SessionRecord,
  action: ActionName,
  outcome: DriverOutcome,
  harPath: string | undefined,
): DriverOutcome {
  if (!outcome.ok) return outcome;
  try {
    if (action === 'network.get')
      return bodyResult(sessionRules(session, deps.files), outcome.data as DriverResult<'network.get'>);
    if (action === 'network.har' && harPath !== undefined)
      return writeHar(harPath, outcome.data as DriverResult<'network.har'>);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return failed('PATH_NOT_ALLOWED', `the file could not be written: ${why}`);
  }
  return outcome;
}

/** The news line of an action's answer becomes a note of this very answer. */
export function noteNews(session: SessionRecord, tab: TabRecord, outcome: DriverOutcome): void {
  if (outcome.ok && outcome.news !== undefined)
    session.notes.push({ kind: 'news', about: tab.handle, text: outcome.news });
}
