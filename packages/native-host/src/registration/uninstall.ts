/**
 * `bproxy host uninstall`: removes what install.json says `install` wrote — and only what is still
 * ours. A manifest file is removed when it still names com.bproxy.host and this install's launcher; a
 * registry key when its value is still this install's manifest. Anything changed since (another
 * program's registration, another BPROXY_HOME's) is left alone and reported. When no browser is left
 * registered, the launcher, the host's copy (BPROXY_HOME/host/<version>, as recorded), the Windows
 * manifest and the record go too; host.log stays.
 */
import { readFileSync } from 'node:fs';
import { NATIVE_HOST_NAME } from '@bproxy/protocol';
import { hostFiles, type RegistrationContext } from './context';
import { removeHostCopy } from './copy';
import { removeFile } from './files';
import { selectBrowsers } from './install';
import { readLauncher } from './launcher';
import { entryLocation, readRecord, writeRecord, type InstallRecord, type RecordEntry } from './record';
import { deleteKey, readDefaultValue } from './windows-registry';

export interface UninstallOptions {
  readonly context: RegistrationContext;
  /** Unregister these browsers only; default all that install recorded. */
  readonly browsers?: readonly string[];
}

export type UninstallOutcome =
  | { readonly browser: string; readonly location: string; readonly outcome: 'removed' | 'already-gone' }
  | {
      readonly browser: string;
      readonly location: string;
      readonly outcome: 'kept';
      readonly reason: string;
    };

export interface UninstallReport {
  readonly browsers: readonly UninstallOutcome[];
  /** The launcher, the host's copy, the Windows manifest and install.json, when nothing registered is left. */
  readonly removedFiles: readonly string[];
  /** Set when there was nothing to uninstall. */
  readonly note?: string;
}

/** Whether the manifest at `path` is still the one install wrote: our name, our launcher. */
function isOurManifest(path: string, launcher: string): boolean | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    return false;
  }
  const manifest = value as { name?: unknown; path?: unknown } | null;
  return manifest?.name === NATIVE_HOST_NAME && manifest.path === launcher;
}

async function unregister(
  context: RegistrationContext,
  record: InstallRecord,
  entry: RecordEntry,
): Promise<UninstallOutcome> {
  if (entry.kind === 'file') {
    const ours = isOurManifest(entry.path, record.launcher);
    const location = entry.path;
    if (ours === null) return { browser: entry.browser, location, outcome: 'already-gone' };
    if (!ours)
      return {
        browser: entry.browser,
        location,
        outcome: 'kept',
        reason: 'the file changed since install: it is not ours any more',
      };
    removeFile(entry.path);
    return { browser: entry.browser, location, outcome: 'removed' };
  }
  const value = await readDefaultValue(context.registry, entry.key);
  if (value === null) return { browser: entry.browser, location: entry.key, outcome: 'already-gone' };
  if (value !== entry.manifest)
    return {
      browser: entry.browser,
      location: entry.key,
      outcome: 'kept',
      reason: `the key now points at ${value}`,
    };
  await deleteKey(context.registry, entry.key);
  return { browser: entry.browser, location: entry.key, outcome: 'removed' };
}

export async function uninstallHost(options: UninstallOptions): Promise<UninstallReport> {
  const { context } = options;
  const files = hostFiles(context);
  const record = readRecord(files.record);
  if (record === null)
    return { browsers: [], removedFiles: [], note: `nothing was installed from ${context.stateHome}` };
  const { specs, explicit } = selectBrowsers(options.browsers);
  const chosen = new Set(specs.map((spec) => spec.id));
  const selected = record.entries.filter((entry) => !explicit || chosen.has(entry.browser));
  const remaining = record.entries.filter((entry) => !selected.includes(entry));

  // Browsers sharing one place (Chrome's channels share a registry key) are handled once.
  const byPlace = new Map<string, UninstallOutcome>();
  const outcomes: UninstallOutcome[] = [];
  for (const entry of selected) {
    const place = entryLocation(entry);
    const stillUsed = remaining.some((other) => entryLocation(other) === place);
    const outcome: UninstallOutcome = stillUsed
      ? {
          browser: entry.browser,
          location: place.replace(/^\w+:/, ''),
          outcome: 'kept',
          reason: 'another browser still uses it',
        }
      : (byPlace.get(place) ?? (await unregister(context, record, entry)));
    byPlace.set(place, outcome);
    outcomes.push({ ...outcome, browser: entry.browser });
  }

  const removedFiles: string[] = [];
  if (remaining.length > 0) {
    writeRecord(files.record, { ...record, entries: remaining });
  } else {
    let launcherText: string | null = null;
    try {
      launcherText = readFileSync(record.launcher, 'utf8');
    } catch {
      launcherText = null;
    }
    if (launcherText !== null && readLauncher(launcherText) !== null && removeFile(record.launcher))
      removedFiles.push(record.launcher);
    if (record.copy !== undefined) removedFiles.push(...removeHostCopy(record.copy, files.dir));
    if (isOurManifest(files.sharedManifest, record.launcher) === true && removeFile(files.sharedManifest))
      removedFiles.push(files.sharedManifest);
    if (removeFile(files.record)) removedFiles.push(files.record);
  }
  return { browsers: outcomes, removedFiles };
}
