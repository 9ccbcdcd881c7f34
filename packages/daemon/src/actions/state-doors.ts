/**
 * The daemon's side of state.* and cookies.*: the doors before a driver sees the request, and the file
 * after it answered.
 * - In the user's own Chrome (the extension), reading cookies — `cookies list`, `state save`, which
 *   export the user's real logins — and `cookies clear`, which would log them out, are refused with
 *   STATE_NOT_ALLOWED unless the user allowed it in BPROXY_HOME/user-chrome.json
 *   (`{"cookies": true}`, a file the user writes: no action or parameter turns it on). Loading and
 *   setting stay open there: the extension never overwrites a cookie the user has.
 * - `state load` reads the file here (state-files.ts confines it by the rule of files/allowed-folders.ts), checks it is Playwright's
 *   storage-state JSON and forwards its content; `state save` checks the path first, then writes what
 *   the driver answered, 0600.
 */
import { dirname, join } from 'node:path';
import { readStateFile } from '@bproxy/client/lifecycle';
import { StorageStateSchema, formatIssues, type ActionName } from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { failed } from './outcome';
import { sessionRules } from '../files/allowed-folders';
import { PathRefused, readConfined, statePath, writeConfined } from './state-files';
import type { CommandRouteDeps } from './types';

/** The actions that read the user's cookies or remove them: refused in the user's Chrome unless allowed. */
const NEEDS_PERMISSION: ReadonlySet<ActionName> = new Set(['state.save', 'cookies.list', 'cookies.clear']);

export function isStateAction(action: ActionName): boolean {
  return action.startsWith('state.') || action.startsWith('cookies.');
}

/** BPROXY_HOME is the parent of the sessions' folders (statePaths: BPROXY_HOME/tmp). */
function homeOf(deps: CommandRouteDeps): string {
  return dirname(deps.tmpRoot);
}

/** Whether the user allowed agents to read the cookies of their own Chrome; unsafe files count as no. */
export function userAllowsCookies(home: string): boolean {
  try {
    const text = readStateFile(join(home, 'user-chrome.json'));
    if (text === null) return false;
    const parsed: unknown = JSON.parse(text);
    return (
      typeof parsed === 'object' && parsed !== null && (parsed as { cookies?: unknown }).cookies === true
    );
  } catch {
    return false;
  }
}

export type Prepared = { forwarded: Record<string, unknown>; path?: string } | DriverOutcome;

/** Before forwarding: the permission door, the path check, and for state.load the file's content. */
export function prepareStateAction(
  deps: CommandRouteDeps,
  action: ActionName,
  session: SessionRecord,
  client: ClientRecord,
  params: Record<string, unknown>,
): Prepared {
  const home = homeOf(deps);
  if (client.kind === 'extension' && NEEDS_PERMISSION.has(action) && !userAllowsCookies(home))
    return failed(
      'STATE_NOT_ALLOWED',
      `${action} would read or remove the cookies of your own Chrome, which you have not allowed`,
    );
  if (action !== 'state.save' && action !== 'state.load') return { forwarded: params };
  try {
    const mode = action === 'state.save' ? 'save' : 'load';
    const path = statePath(String(params.path), home, sessionRules(session, deps.files), mode);
    if (action === 'state.save') return { forwarded: {}, path };
    let json: unknown;
    try {
      json = JSON.parse(readConfined(path));
    } catch (error) {
      if (error instanceof PathRefused) throw error;
      return failed('STATE_FILE_INVALID', `${path} is not JSON`);
    }
    const state = StorageStateSchema.safeParse(json);
    if (!state.success) return failed('STATE_FILE_INVALID', `${path}: ${formatIssues(state.error, json)}`);
    return { forwarded: { state: state.data }, path };
  } catch (error) {
    if (error instanceof PathRefused) return failed(error.code, error.message);
    return failed('PATH_NOT_ALLOWED', (error as Error).message);
  }
}

/** After the driver answered: state.save writes the file, and each answer names the path. */
export function finishStateAction(
  action: ActionName,
  path: string | undefined,
  outcome: DriverOutcome,
): DriverOutcome {
  if (!outcome.ok || path === undefined) return outcome;
  const data = outcome.data as Record<string, unknown>;
  if (action === 'state.load') return { ok: true, data: { ...data, path } };
  const state = StorageStateSchema.parse(data);
  try {
    writeConfined(path, `${JSON.stringify(state, null, 2)}\n`);
  } catch (error) {
    if (error instanceof PathRefused) return failed(error.code, error.message);
    return failed('PATH_NOT_ALLOWED', `cannot write ${path}: ${(error as Error).message}`);
  }
  return { ok: true, data: { path, cookies: state.cookies.length, origins: state.origins.length } };
}
