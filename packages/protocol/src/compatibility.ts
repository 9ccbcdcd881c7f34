/**
 * Which versions of bproxy's three moving parts — the extension, the native host, the daemon — work
 * together: the one rule, used by every side of every connection (the daemon on a driver's hello, the
 * host on the extension's hello, the extension on the host's welcome, the host on the daemon it finds,
 * `bproxy host status` on the host it probes).
 *
 * The product version is compared, not a wire number: it is what each part already reports, what the
 * user sees and what the fixing command installs. Same major version, and while the major is 0 the
 * same minor too (0.x releases may change any wire): 1.2.0 and 1.5.3 work together, 0.1.0 and 0.2.0
 * do not. The wire numbers (PROTOCOL_VERSION, NATIVE_PROTOCOL_VERSION) stay as a second, coarser
 * check. A version that does not parse is never compatible: fail closed.
 */

export type Part = 'extension' | 'native host' | 'daemon';

interface Parsed {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: string | null;
}

const SEMVER = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?$/;

function parse(version: string): Parsed | null {
  const match = SEMVER.exec(version);
  if (match === null) return null;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    pre: match[4] ?? null,
  };
}

/** Whether parts of versions `a` and `b` work together (symmetric). */
export function versionsCompatible(a: string, b: string): boolean {
  const left = parse(a);
  const right = parse(b);
  if (left === null || right === null) return false;
  if (left.major !== right.major) return false;
  return left.major !== 0 || left.minor === right.minor;
}

/** Negative when `a` is older than `b`; a version that does not parse is the oldest. */
export function compareVersions(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  if (left === null || right === null) return (left === null ? -1 : 0) - (right === null ? -1 : 0);
  const order = left.major - right.major || left.minor - right.minor || left.patch - right.patch;
  if (order !== 0) return order;
  if (left.pre === right.pre) return 0;
  // A pre-release comes before its release.
  if (left.pre === null) return 1;
  if (right.pre === null) return -1;
  return left.pre < right.pre ? -1 : 1;
}

/** The one command (or step) that brings a part that is too old up to date. */
export const UPDATE_STEP: Readonly<Record<Part, string>> = {
  extension:
    'update the extension: reload it in chrome://extensions (the unpacked folder `bproxy setup` names), or update it from the store',
  'native host': 'run `bproxy setup`',
  daemon: 'restart the daemon: `bproxy service stop && bproxy service start`',
};

export interface PartVersion {
  readonly part: Part;
  readonly version: string;
}

export interface VersionSkew {
  /** The part to update, and its version. */
  readonly old: PartVersion;
  readonly newer: PartVersion;
  /** One sentence: which part is old, and what fixes it. */
  readonly message: string;
}

/** Null when `a` and `b` work together; else which of them is old and the step that fixes it. */
export function versionSkew(a: PartVersion, b: PartVersion): VersionSkew | null {
  if (versionsCompatible(a.version, b.version)) return null;
  const [old, newer] = compareVersions(a.version, b.version) < 0 ? [a, b] : [b, a];
  return {
    old,
    newer,
    message:
      `the ${old.part} is version ${old.version} and the ${newer.part} ${newer.version}: ` +
      `they do not work together, and the ${old.part} is the older one — ${UPDATE_STEP[old.part]}`,
  };
}

/**
 * Why a running daemon of `daemonVersion` cannot serve a client (the CLI, the MCP server) of
 * `clientVersion`, with the one command that fixes it; null when they work together. A daemon that
 * names no version is older than the version check itself: refused (fail closed).
 */
export function daemonVersionProblem(daemonVersion: string | null, clientVersion: string): string | null {
  if (daemonVersion !== null && versionsCompatible(daemonVersion, clientVersion)) return null;
  const fix =
    'run `bproxy service stop`, then run the command again (it starts a daemon of this version), or restart the daemon: `bproxy service stop && bproxy service start`';
  if (daemonVersion === null)
    return `the running daemon names no version, so it is older than this bproxy ${clientVersion}, and they do not work together: the daemon is the older part — ${fix}`;
  return compareVersions(daemonVersion, clientVersion) < 0
    ? `the running daemon is version ${daemonVersion}, older than this bproxy ${clientVersion}, and they do not work together: the daemon is the older part — ${fix}`
    : `the running daemon is version ${daemonVersion}, newer than this bproxy ${clientVersion}, and they do not work together: this bproxy is the older part — use the newer bproxy, or ${fix}`;
}
