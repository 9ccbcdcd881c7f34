/**
 * `bproxy host install`: registers com.bproxy.host with every Chromium-family browser installed for
 * this user (or the ones named), pointing at a launcher in BPROXY_HOME/host that runs the host's own
 * copy of its bundle, BPROXY_HOME/host/<version>/ (copy.ts), with the absolute Node given. Installing
 * another version replaces the copy the launcher ran, and removes the older one. Writes the launcher (0755 in a 0700 folder), one manifest per browser
 * folder (0644) or, on Windows, one manifest and a registry key per browser brand, then records all of
 * it in install.json so that `uninstall` removes exactly this. Installing again updates in place.
 * Refused when others could change what the launcher runs (trust.ts): the browser runs it as the user.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import {
  addTrustedExtensionId,
  checkExtensionId,
  isLifecycleError,
  statePaths,
  trustedExtensionIds,
} from '@bproxy/client/lifecycle';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { TERMINAL_COMMAND_VAR } from '../terminal/terminal-command';
import { BROWSERS, BROWSER_IDS, browserSpec, type BrowserSpec } from './browsers';
import { hostFiles, hostLocation, isInstalled, type HostLocation, type RegistrationContext } from './context';
import { HOST_EXTERNALS, copyFolder, findPackage, removeHostCopy, writeHostCopy } from './copy';
import { ensureFolder, writeFileAtomic } from './files';
import { launcherText } from './launcher';
import { buildManifest, manifestText } from './manifest';
import { launchedTrustProblems, trustProblems } from './trust';
import { entryLocation, readRecord, writeRecord, type RecordEntry } from './record';
import { readDefaultValue, writeDefaultValue } from './windows-registry';

/** A request registration cannot carry out as asked (unknown browser, missing Node or bundle). */
export class RegistrationError extends Error {
  override readonly name = 'RegistrationError';
  constructor(
    message: string,
    /** The command line asked for something that does not exist (a usage error), rather than a failure. */
    readonly usage = false,
    /** A state file in BPROXY_HOME is not safe to trust (extensions.json): UNSAFE_STATE_FILE. */
    readonly unsafeState = false,
  ) {
    super(message);
  }
}

export interface InstallOptions {
  readonly context: RegistrationContext;
  /** The absolute Node binary the launcher runs. */
  readonly node: string;
  /** The absolute host bundle to install (dist/native-host.mjs): it and its sibling bundles are copied. */
  readonly bundle: string;
  /** The version the copy's folder is named after; default this program's BPROXY_VERSION. */
  readonly version?: string;
  /** Register with these browsers, installed or not; default: every browser installed here. */
  readonly browsers?: readonly string[];
  /** An extension id to trust besides the built-in ones (`--extension-id`): added to extensions.json. */
  readonly extensionId?: string;
  /** The side panel Terminal's program and arguments; default: BPROXY_TERMINAL_COMMAND, else none. */
  readonly terminalCommand?: string;
}

export interface InstallReport {
  readonly launcher: string;
  readonly node: string;
  /** The host bundle the launcher runs: the copy's, in BPROXY_HOME/host/<version>. */
  readonly bundle: string;
  /** The bundle the copy was made from. */
  readonly installedFrom: string;
  readonly version: string;
  /** The copies of other versions this install removed (their folders). */
  readonly removedCopies: readonly string[];
  /** Every trusted extension id, which the manifests allow (BPROXY_HOME/extensions.json + built-in). */
  readonly extensionIds: readonly string[];
  /** The id --extension-id added to extensions.json, or null (none given, or already trusted). */
  readonly addedExtensionId: string | null;
  /** The BPROXY_HOME baked into the launcher, or null (the host uses ~/.bproxy). */
  readonly stateHome: string | null;
  /** The Terminal's program baked into the launcher, or null (claude when on PATH, else the shell). */
  readonly terminalCommand: string | null;
  readonly registered: readonly {
    readonly browser: string;
    readonly name: string;
    /** The manifest file, or the registry key. */
    readonly location: string;
    /** Another registration of com.bproxy.host was there and was replaced. */
    readonly replaced: boolean;
  }[];
  readonly skipped: readonly { readonly browser: string; readonly name: string; readonly reason: string }[];
}

export function selectBrowsers(names: readonly string[] | undefined): {
  specs: readonly BrowserSpec[];
  explicit: boolean;
} {
  if (names === undefined || names.length === 0) return { specs: BROWSERS, explicit: false };
  const specs = names.map((name) => {
    const spec = browserSpec(name);
    if (spec === undefined)
      throw new RegistrationError(
        `unknown browser "${name}"; known browsers: ${BROWSER_IDS.join(', ')}`,
        true,
      );
    return spec;
  });
  return { specs: [...new Set(specs)], explicit: true };
}

/** An extension id given on the command line, checked (a usage error when it is not one). */
export function chosenExtensionId(raw: string): string {
  try {
    return checkExtensionId(raw);
  } catch (error) {
    throw new RegistrationError(error instanceof Error ? error.message : String(error), true);
  }
}

/** The trusted ids (one setting in BPROXY_HOME); an unsafe or malformed extensions.json is refused. */
export function trustedIds(stateHome: string): readonly string[] {
  try {
    return trustedExtensionIds(statePaths(stateHome));
  } catch (error) {
    if (isLifecycleError(error))
      throw new RegistrationError(error.message, false, error.kind === 'unsafe-state');
    throw error;
  }
}

export function describeLocation(location: HostLocation): string {
  return location.kind === 'file' ? location.path : location.key;
}

/**
 * The Terminal's program as the launcher will set it: one line of words. A line break or NUL would end
 * the launcher's assignment early; on Windows a `"` would end the .bat's quoting.
 */
function chosenTerminalCommand(raw: string | undefined, platform: string): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.length > 1000) throw new RegistrationError('the terminal command is longer than 1000 characters');
  if (/[\r\n\0]/.test(raw)) throw new RegistrationError('the terminal command must be one line');
  if (platform === 'win32' && raw.includes('"'))
    throw new RegistrationError('on Windows the terminal command cannot contain double quotes');
  return raw.trim();
}

function checkInputs(options: InstallOptions): void {
  if (!isAbsolute(options.node) || !existsSync(options.node))
    throw new RegistrationError(
      `the Node binary ${options.node} does not exist (it must be an absolute path)`,
    );
  if (!isAbsolute(options.bundle) || !existsSync(options.bundle))
    throw new RegistrationError(`the host bundle ${options.bundle} does not exist; run \`npm run build\``);
}

/**
 * Refuses to register a launcher that others could make run their code as the user: the Node binary,
 * the bundle and the folders above them, and the folders above BPROXY_HOME/host (which install
 * creates or tightens itself), must be the user's or root's and closed to writes by others.
 */
function checkTrust(options: InstallOptions, hostFolder: string): void {
  // The packages the copy will link to: the folders above each (and its link chain), as for the bundle.
  const externals = HOST_EXTERNALS.flatMap((name) => {
    const found = findPackage(dirname(options.bundle), name);
    return found === null ? [] : trustProblems(found);
  });
  const problems = [
    ...new Set([
      ...launchedTrustProblems(options.node, options.bundle),
      ...trustProblems(dirname(hostFolder)),
      ...externals,
    ]),
  ];
  if (problems.length > 0)
    throw new RegistrationError(
      `refusing to register the native host: the browser would run it as you, and others could change it — ${problems.join('; ')}`,
    );
}

function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export async function installHost(options: InstallOptions): Promise<InstallReport> {
  const { context } = options;
  checkInputs(options);
  const extensionId = options.extensionId === undefined ? null : chosenExtensionId(options.extensionId);
  // Read (and so checked) before anything is written: an unsafe extensions.json stops the install.
  trustedIds(context.stateHome);
  const terminalCommand = chosenTerminalCommand(
    options.terminalCommand ?? context.env[TERMINAL_COMMAND_VAR],
    context.platform,
  );
  const { specs, explicit } = selectBrowsers(options.browsers);
  const files = hostFiles(context);
  const version = options.version ?? BPROXY_VERSION;
  let copyDir: string;
  try {
    copyDir = copyFolder(files.dir, version);
  } catch (error) {
    throw new RegistrationError(error instanceof Error ? error.message : String(error));
  }
  checkTrust(options, files.dir);
  const rawHome = context.env.BPROXY_HOME;
  const stateHome = rawHome !== undefined && rawHome !== '' ? context.stateHome : null;

  const targets: { spec: BrowserSpec; location: HostLocation }[] = [];
  const skipped: { browser: string; name: string; reason: string }[] = [];
  for (const spec of specs) {
    const location = hostLocation(context, spec);
    if (location === null)
      skipped.push({
        browser: spec.id,
        name: spec.name,
        reason: `no ${spec.name} for this operating system`,
      });
    else if (!explicit && !isInstalled(context, spec))
      skipped.push({ browser: spec.id, name: spec.name, reason: 'not installed' });
    else targets.push({ spec, location });
  }
  // --extension-id is kept in the one setting every part reads, even with no browser to register.
  let added = false;
  if (extensionId !== null) {
    try {
      added = addTrustedExtensionId(statePaths(context.stateHome), extensionId);
    } catch (error) {
      if (isLifecycleError(error))
        throw new RegistrationError(error.message, false, error.kind === 'unsafe-state');
      throw error;
    }
  }
  const extensionIds = trustedIds(context.stateHome);
  const report = {
    launcher: files.launcher,
    node: options.node,
    bundle: join(copyDir, basename(options.bundle)),
    installedFrom: options.bundle,
    version,
    extensionIds,
    addedExtensionId: added ? extensionId : null,
    stateHome,
    terminalCommand,
  };
  if (targets.length === 0) return { ...report, removedCopies: [], registered: [], skipped };

  ensureFolder(files.dir, 0o700);
  const previous = readRecord(files.record);
  const copy = writeHostCopy(options.bundle, copyDir, version);
  writeFileAtomic(
    files.launcher,
    launcherText(context.platform, {
      node: options.node,
      bundle: report.bundle,
      stateHome,
      terminalCommand,
    }),
    0o755,
  );
  const manifest = manifestText(buildManifest(files.launcher, extensionIds));
  if (targets.some((target) => target.location.kind === 'registry'))
    writeFileAtomic(files.sharedManifest, manifest, 0o644);

  const registered: InstallReport['registered'][number][] = [];
  const entries: RecordEntry[] = [];
  for (const { spec, location } of targets) {
    let replaced: boolean;
    if (location.kind === 'file') {
      const before = readTextOrNull(location.path);
      replaced = before !== null && before !== manifest;
      ensureFolder(dirname(location.path), 0o755);
      writeFileAtomic(location.path, manifest, 0o644);
      entries.push({ browser: spec.id, kind: 'file', path: location.path });
    } else {
      const before = await readDefaultValue(context.registry, location.key);
      replaced = before !== null && before !== files.sharedManifest;
      await writeDefaultValue(context.registry, location.key, files.sharedManifest);
      entries.push({ browser: spec.id, kind: 'registry', key: location.key, manifest: files.sharedManifest });
    }
    registered.push({ browser: spec.id, name: spec.name, location: describeLocation(location), replaced });
  }

  // Entries of an earlier install stay, unless this one wrote the same browser at the same place.
  const written = new Set(entries.map((entry) => `${entry.browser} ${entryLocation(entry)}`));
  const earlier = (readRecord(files.record)?.entries ?? []).filter(
    (entry) => !written.has(`${entry.browser} ${entryLocation(entry)}`),
  );
  writeRecord(files.record, {
    version: 2,
    launcher: report.launcher,
    node: report.node,
    bundle: report.bundle,
    extensionIds,
    stateHome,
    copy,
    entries: [...earlier, ...entries],
  });
  // The copy the launcher ran before, when it was another version's: nothing names it any more. The same
  // version's: only what this copy no longer has (an older build's agent chunks, a package gone).
  const removedCopies: string[] = [];
  if (previous?.copy !== undefined && previous.copy.dir !== copy.dir) {
    removeHostCopy(previous.copy, files.dir);
    removedCopies.push(previous.copy.dir);
  } else if (previous?.copy !== undefined) removeHostCopy(previous.copy, files.dir, copy);
  return { ...report, removedCopies, registered, skipped };
}
