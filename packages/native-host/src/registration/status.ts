/**
 * `bproxy host status`: per browser, whether it is installed, whether com.bproxy.host is registered
 * with it, what is stale about the registration (a launcher that is missing or not this install's, a
 * wrong origin, a Node or bundle that is gone, a file others can write — the launcher, what it runs or
 * any folder above them, see trust.ts), and whether the host actually starts and answers — the
 * launcher is run once, as a browser runs it (see probe.ts), unless others could have changed it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { hostFiles, hostLocation, isInstalled, type RegistrationContext } from './context';
import { modeProblem } from './files';
import { chosenExtensionId, describeLocation, selectBrowsers, trustedIds } from './install';
import { readLauncher } from './launcher';
import { readManifest } from './manifest';
import { launchedTrustProblems, trustProblems } from './trust';
import { probeLauncher, type ProbeResult } from './probe';
import { readRecord, type InstallRecord } from './record';
import { readDefaultValue } from './windows-registry';
import { extensionOrigin } from '../origin';

export interface StatusOptions {
  readonly context: RegistrationContext;
  readonly browsers?: readonly string[];
  /** The extension the probe calls as (a trusted one); default the development id. */
  readonly extensionId?: string;
  /** Run each registered launcher once (default true). */
  readonly probe?: boolean;
  readonly probeTimeoutMs?: number;
}

export interface BrowserStatus {
  readonly browser: string;
  readonly name: string;
  readonly installed: boolean;
  /** Where the browser looks for the host (manifest file or registry key). */
  readonly location: string;
  readonly registered: boolean;
  /** Registered by this BPROXY_HOME's install (it is in install.json). */
  readonly recorded: boolean;
  /** The launcher the registration runs. */
  readonly launcher: string | null;
  readonly stale: boolean;
  readonly problems: readonly string[];
  /** The host's answer to hello; null when not registered or not probed. */
  readonly answers: ProbeResult | null;
}

export interface StatusReport {
  /** The trusted extension ids (BPROXY_HOME/extensions.json + built-in): the manifests must allow exactly these. */
  readonly extensionIds: readonly string[];
  readonly stateHome: string;
  /** The launcher this BPROXY_HOME's install wrote, or null. */
  readonly launcher: string | null;
  readonly browsers: readonly BrowserStatus[];
  /** At least one browser registered, and every registration fresh and answering. */
  readonly ok: boolean;
}

interface Registration {
  readonly registered: boolean;
  readonly manifestPath: string | null;
  readonly problems: string[];
}

async function findManifest(
  context: RegistrationContext,
  location: ReturnType<typeof hostLocation>,
): Promise<Registration> {
  if (location === null) return { registered: false, manifestPath: null, problems: [] };
  if (location.kind === 'file')
    return { registered: existsSync(location.path), manifestPath: location.path, problems: [] };
  const value = await readDefaultValue(context.registry, location.key);
  if (value === null) return { registered: false, manifestPath: null, problems: [] };
  return {
    registered: true,
    manifestPath: value,
    problems: existsSync(value) ? [] : [`the registry key points at ${value}, which does not exist`],
  };
}

interface LauncherCheck {
  readonly problems: string[];
  /** Others could change what the launcher runs: it is reported, and not run to probe it. */
  readonly unsafe: boolean;
}

function launcherProblems(launcher: string, record: InstallRecord | null): LauncherCheck {
  if (!existsSync(launcher))
    return {
      problems: [`the launcher ${launcher} is missing (moved or deleted): run \`bproxy host install\``],
      unsafe: false,
    };
  const problems: string[] = [];
  if (record !== null && launcher !== record.launcher)
    problems.push(`it runs ${launcher}, not this install's launcher ${record.launcher}`);
  // The launcher and every folder above it first: a launcher others can rewrite is not read further.
  const launcherTrust = trustProblems(launcher);
  if (launcherTrust.length > 0) return { problems: [...problems, ...launcherTrust], unsafe: true };
  let text = '';
  try {
    text = readFileSync(launcher, 'utf8');
  } catch (error) {
    problems.push(`cannot read the launcher: ${error instanceof Error ? error.message : String(error)}`);
    return { problems, unsafe: false };
  }
  const runs = readLauncher(text);
  if (runs === null) {
    problems.push(`${launcher} was not written by \`bproxy host install\``);
    return { problems, unsafe: false };
  }
  if (!existsSync(runs.node))
    problems.push(`wrong node: ${runs.node} does not exist: run \`bproxy host install\` again`);
  if (!existsSync(runs.bundle))
    problems.push(`the host bundle ${runs.bundle} is missing: run \`bproxy setup\``);
  // What the launcher executes, and the folders above it, as install checked them.
  const runsTrust = launchedTrustProblems(runs.node, runs.bundle);
  return { problems: [...problems, ...runsTrust], unsafe: runsTrust.length > 0 };
}

export async function hostStatus(options: StatusOptions): Promise<StatusReport> {
  const { context } = options;
  const files = hostFiles(context);
  const record = readRecord(files.record);
  const extensionIds = trustedIds(context.stateHome);
  const extensionId =
    options.extensionId === undefined ? DEFAULT_EXTENSION_ID : chosenExtensionId(options.extensionId);
  const { specs } = selectBrowsers(options.browsers);
  const probes = new Map<string, Promise<ProbeResult>>();
  const probe = (launcher: string) => {
    let result = probes.get(launcher);
    if (result === undefined) {
      result = probeLauncher(launcher, extensionOrigin(extensionId), {
        platform: context.platform,
        home: context.home,
        env: context.env,
        timeoutMs: options.probeTimeoutMs,
      });
      probes.set(launcher, result);
    }
    return result;
  };

  const browsers: BrowserStatus[] = [];
  for (const spec of specs) {
    const location = hostLocation(context, spec);
    if (location === null) continue;
    const where = describeLocation(location);
    const found = await findManifest(context, location);
    const recorded = record?.entries.some((entry) => entry.browser === spec.id) ?? false;
    const problems = [...found.problems];
    let launcher: string | null = null;
    let unsafe = false;
    if (found.registered && found.manifestPath !== null && problems.length === 0) {
      const reading = readManifest(found.manifestPath, extensionIds);
      if (reading.kind === 'unreadable') problems.push(reading.reason);
      if (reading.kind === 'read') {
        problems.push(...reading.problems);
        launcher = reading.manifest.path ?? null;
        if (launcher !== null) {
          const check = launcherProblems(launcher, record);
          problems.push(...check.problems);
          unsafe = check.unsafe;
        }
      }
      const mode = modeProblem(found.manifestPath);
      if (mode !== null) problems.push(mode);
    }
    const answers =
      found.registered && launcher !== null && existsSync(launcher) && !unsafe && options.probe !== false
        ? await probe(launcher)
        : null;
    browsers.push({
      browser: spec.id,
      name: spec.name,
      installed: isInstalled(context, spec),
      location: where,
      registered: found.registered,
      recorded,
      launcher,
      stale: problems.length > 0,
      problems,
      answers,
    });
  }
  const registered = browsers.filter((browser) => browser.registered);
  return {
    extensionIds,
    stateHome: context.stateHome,
    launcher: record?.launcher ?? null,
    browsers,
    ok:
      registered.length > 0 && registered.every((browser) => !browser.stale && browser.answers?.ok !== false),
  };
}
