/**
 * BPROXY_HOME/host/install.json (0600): what `install` wrote — the launcher, the Node and bundle it
 * runs, the host's copy (its folder, files and node_modules links: copy.ts), and each browser's
 * manifest file or registry key — so that `uninstall` removes exactly that,
 * and `status` can tell our registration from one that moved. Read by hand, field by field: a record
 * that does not parse is treated as no record (nothing is removed on its word).
 */
import { readFileSync } from 'node:fs';
import type { HostCopy } from './copy';
import { writeFileAtomic } from './files';

export type RecordEntry =
  | { readonly browser: string; readonly kind: 'file'; readonly path: string }
  | { readonly browser: string; readonly kind: 'registry'; readonly key: string; readonly manifest: string };

export interface InstallRecord {
  /** 2 since the host runs from its copy; a record of 1 (no copy) is still read, to uninstall it. */
  readonly version: 1 | 2;
  readonly launcher: string;
  readonly node: string;
  readonly bundle: string;
  /** The trusted extension ids the manifests allowed when written (informative; extensions.json rules). */
  readonly extensionIds: readonly string[];
  /** BPROXY_HOME baked into the launcher, or null. */
  readonly stateHome: string | null;
  readonly entries: readonly RecordEntry[];
  /** The host's copy in BPROXY_HOME/host/<version>; absent in a record of version 1. */
  readonly copy?: HostCopy;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value !== '';

function readCopy(value: unknown): HostCopy | null {
  if (value === null || typeof value !== 'object') return null;
  const copy = value as Record<string, unknown>;
  if (!isString(copy.dir) || !isString(copy.version)) return null;
  if (!Array.isArray(copy.files) || !copy.files.every(isString)) return null;
  if (!Array.isArray(copy.modules)) return null;
  const modules: { name: string; target: string }[] = [];
  for (const module of copy.modules as unknown[]) {
    if (module === null || typeof module !== 'object') return null;
    const { name, target } = module as Record<string, unknown>;
    if (!isString(name) || !isString(target)) return null;
    modules.push({ name, target });
  }
  return {
    dir: copy.dir,
    version: copy.version,
    files: copy.files,
    modules,
    ...(isString(copy.extension) ? { extension: copy.extension } : {}),
  };
}

function readEntry(value: unknown): RecordEntry | null {
  if (value === null || typeof value !== 'object') return null;
  const entry = value as Record<string, unknown>;
  if (!isString(entry.browser)) return null;
  if (entry.kind === 'file' && isString(entry.path))
    return { browser: entry.browser, kind: 'file', path: entry.path };
  if (entry.kind === 'registry' && isString(entry.key) && isString(entry.manifest))
    return { browser: entry.browser, kind: 'registry', key: entry.key, manifest: entry.manifest };
  return null;
}

export function readRecord(path: string): InstallRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  if ((record.version !== 1 && record.version !== 2) || !Array.isArray(record.entries)) return null;
  const copy = record.version === 2 ? readCopy(record.copy) : undefined;
  if (copy === null) return null;
  const { launcher, node, bundle, extensionIds, stateHome } = record;
  if (!isString(launcher) || !isString(node) || !isString(bundle)) return null;
  if (stateHome !== null && !isString(stateHome)) return null;
  const entries = record.entries.map(readEntry);
  if (entries.some((entry) => entry === null)) return null;
  return {
    version: record.version,
    launcher,
    node,
    bundle,
    extensionIds: Array.isArray(extensionIds) ? extensionIds.filter(isString) : [],
    stateHome,
    entries: entries.filter((entry): entry is RecordEntry => entry !== null),
    ...(copy === undefined ? {} : { copy }),
  };
}

export function writeRecord(path: string, record: InstallRecord): void {
  writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

/** Where an entry lives, to tell two entries for the same place apart from two browsers sharing it. */
export function entryLocation(entry: RecordEntry): string {
  return entry.kind === 'file' ? `file:${entry.path}` : `registry:${entry.key}`;
}
