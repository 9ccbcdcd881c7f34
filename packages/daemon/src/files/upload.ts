/**
 * upload (and drop, files dropped onto a drop zone) on the daemon's side: the paths the agent named are checked against the allowed folders
 * (allowed-folders.ts) before the request is forwarded — a refusal answers at once and the driver never
 * hears of it — and the driver gets the checked real paths with each file's name and type. The answer
 * names the files that were set.
 */
import type { ClientRecord } from '../browsers/clients';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from '../actions/outcome';
import type { CommandRouteDeps } from '../actions/types';
import type { SessionRecord } from '../sessions/sessions';
import { checkFiles, sessionRules, type CheckedFile } from './allowed-folders';

export interface CheckedUpload {
  readonly params: Record<string, unknown>;
  readonly files: readonly CheckedFile[];
}

/** The forwarded params of an upload, or the refusal. */
export function checkUpload(
  deps: CommandRouteDeps,
  session: SessionRecord,
  params: Record<string, unknown>,
  client: ClientRecord,
  action: 'upload' | 'drop' = 'upload',
): CheckedUpload | DriverOutcome {
  // The browser is handed a path on this machine: one running elsewhere could not read it.
  if (deps.launchers.isRemote(client))
    return failed(
      'UNSUPPORTED_ACTION',
      `${action} hands the browser a path on this machine; browser "${client.name}" runs elsewhere (a remote endpoint or farm)`,
    );
  const raws = Array.isArray(params.files)
    ? params.files.filter((f): f is string => typeof f === 'string')
    : [];
  const checked = checkFiles(raws, sessionRules(session, deps.files));
  if (!checked.ok) return failed(checked.code, checked.message);
  const files = checked.files.map(({ path, name, type }) => ({ path, name, type }));
  return { params: { ...params, files }, files: checked.files };
}

/** The agent's answer: the driver's effects and the files set, by name and size (never their paths). */
export function uploadAnswer(outcome: DriverOutcome, files: readonly CheckedFile[]): DriverOutcome {
  if (!outcome.ok) return outcome;
  const data = outcome.data as Record<string, unknown>;
  return { ok: true, data: { ...data, files: files.map((f) => ({ file: f.name, bytes: f.bytes })) } };
}
