/**
 * The daemon's checks: BPROXY_HOME and the files in it (secrets 0600, folders 0700, ours, no
 * symlinks), whether a daemon runs and on which port, and its version against this CLI's — asked
 * with `debug.status` through the client, which refuses a daemon of a version it does not work with
 * (VERSION_MISMATCH) before it sends anything. The answer feeds the extension's checks.
 */
import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ClientError, DaemonClient } from '@bproxy/client';
import { assertSafeStats, currentUid, isLifecycleError } from '@bproxy/client/lifecycle';
import { daemonStatus } from '@bproxy/client/service';
import { BPROXY_VERSION, actionDef } from '@bproxy/protocol';
import { type Check, type DoctorContext, describeError, fail, ok, skip } from './checks';

/** What `debug.status` answered, for the extension's checks; null when the daemon could not say. */
export interface DaemonView {
  readonly paired: boolean;
  readonly clients: readonly {
    readonly kind: string;
    readonly connected: boolean;
    readonly version?: string;
  }[];
  readonly version: string;
}

const octal = (mode: number): string => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Why a folder of ours is not private (0700, ours, not a link), with the fix; null when it is. */
function folderProblem(path: string, stats: Stats): { problem: string; fix: string } | null {
  if (stats.isSymbolicLink() || !stats.isDirectory())
    return { problem: `${path} is not a folder (a symbolic link or a file)`, fix: `remove ${path}` };
  const uid = currentUid();
  if (uid !== null && stats.uid !== uid)
    return { problem: `${path} belongs to uid ${stats.uid}, not to you`, fix: `remove ${path}` };
  if (uid !== null && (stats.mode & 0o077) !== 0)
    return { problem: `${path} is ${octal(stats.mode)}, open to others`, fix: `chmod 700 ${path}` };
  return null;
}

/** The private files of BPROXY_HOME: the daemon's and the extension's tokens, pairing, trust, agent keys. */
function secretFiles(context: DoctorContext): string[] {
  const { paths, home } = context;
  return [
    paths.token,
    paths.extensionToken,
    paths.pairing,
    paths.extensions,
    join(home, 'agent', 'config.json'),
    join(home, 'agent', 'keys.json'),
    join(home, 'host', 'install.json'),
    join(home, 'secrets.json'),
    join(home, 'secrets.key'),
  ];
}

const KEY_PLACES = {
  file: 'in BPROXY_HOME/secrets.key (0600): no OS keychain answered when the first secret was added',
  'secret-tool': 'in the OS keyring (libsecret, through secret-tool)',
  keychain: 'in the macOS Keychain',
  dpapi: 'in BPROXY_HOME/secrets.key, sealed for this Windows user by DPAPI',
} as const;

/** The secret store (fill --secret): how many secrets, where their key is, and whether they open. */
async function secretsCheck(context: DoctorContext): Promise<Check> {
  const { checkSecretStore, SecretStoreError } = await import('@bproxy/client/lifecycle');
  try {
    const status = checkSecretStore(context.home);
    if (status === null)
      return ok('daemon', 'secrets', 'no secrets added (bproxy secret add NAME --origin ORIGIN)');
    return ok('daemon', 'secrets', `${status.count} secret(s); the key is ${KEY_PLACES[status.place]}`);
  } catch (error) {
    if (!(error instanceof SecretStoreError)) throw error;
    return fail(
      'daemon',
      'secrets',
      error.message,
      error.kind === 'unsafe'
        ? 'fix the file it names (chmod 600, or remove a link)'
        : '`bproxy secret remove NAME` and `bproxy secret add NAME --origin ORIGIN` again (or remove BPROXY_HOME/secrets.json)',
    );
  }
}

function privateFolders(context: DoctorContext): string[] {
  const { paths, home } = context;
  return [paths.logs, paths.tmp, paths.screenshots, join(home, 'agent'), join(home, 'host')];
}

function homeCheck(context: DoctorContext): Check {
  const stats = lstatOrNull(context.home);
  if (stats === null)
    return fail(
      'daemon',
      'home',
      `BPROXY_HOME ${context.home} does not exist: bproxy has not run for this user yet`,
      '`bproxy service start` (or `bproxy setup`)',
    );
  const problem = folderProblem(context.home, stats);
  if (problem !== null) return fail('daemon', 'home', problem.problem, problem.fix);
  return ok('daemon', 'home', `${context.home} (0700, yours)`);
}

function filesCheck(context: DoctorContext): Check {
  const problems: string[] = [];
  const fixes: string[] = [];
  let checked = 0;
  for (const file of secretFiles(context)) {
    const stats = lstatOrNull(file);
    if (stats === null) continue;
    checked++;
    try {
      assertSafeStats(file, stats);
    } catch (error) {
      if (!isLifecycleError(error)) throw error;
      problems.push(error.message);
      fixes.push(stats.isFile() && !stats.isSymbolicLink() ? `chmod 600 ${file}` : `remove ${file}`);
    }
  }
  for (const folder of privateFolders(context)) {
    const stats = lstatOrNull(folder);
    if (stats === null) continue;
    checked++;
    const problem = folderProblem(folder, stats);
    if (problem === null) continue;
    problems.push(problem.problem);
    fixes.push(problem.fix);
  }
  if (problems.length > 0)
    return fail('daemon', 'files', problems.join('; '), fixes.map((fix) => `\`${fix}\``).join(', then '));
  return ok('daemon', 'files', `${checked} private files and folders: files 0600, folders 0700, all yours`);
}

/** The daemon's checks and, when one answered, what it said. */
export async function daemonChecks(
  context: DoctorContext,
): Promise<{ checks: Check[]; view: DaemonView | null }> {
  const home = homeCheck(context);
  const checks = [
    home,
    lstatOrNull(context.home) === null
      ? skip('daemon', 'files', 'there is no BPROXY_HOME yet')
      : filesCheck(context),
  ];
  if (lstatOrNull(context.home) !== null) checks.push(await secretsCheck(context));
  let status: ReturnType<typeof daemonStatus>;
  try {
    status = daemonStatus(context.env);
  } catch (error) {
    checks.push(
      fail('daemon', 'running', describeError(error), 'fix the file it names, then `bproxy service start`'),
    );
    checks.push(skip('daemon', 'version', 'the daemon state could not be read'));
    return { checks, view: null };
  }
  if (!status.running) {
    checks.push(
      fail('daemon', 'running', `no daemon is running for ${context.home}`, '`bproxy service start`'),
    );
    checks.push(skip('daemon', 'version', 'no daemon is running'));
    return { checks, view: null };
  }
  checks.push(ok('daemon', 'running', `pid ${status.pid}, port ${status.port} on 127.0.0.1`));
  const client = new DaemonClient({ env: context.env });
  try {
    const answer = await client.call('debug.status', {}, { timeoutMs: 10_000 });
    if (!answer.ok) {
      checks.push(
        fail(
          'daemon',
          'version',
          `the daemon refused debug.status: ${answer.error.code}: ${answer.error.message}`,
          'restart the daemon: `bproxy service stop && bproxy service start`',
        ),
      );
      return { checks, view: null };
    }
    const parsed = actionDef('debug.status').result.safeParse(answer.data);
    if (!parsed.success) {
      checks.push(
        fail(
          'daemon',
          'version',
          'the daemon answered debug.status outside the protocol',
          'restart the daemon: `bproxy service stop && bproxy service start`',
        ),
      );
      return { checks, view: null };
    }
    const view = parsed.data as DaemonView;
    checks.push(ok('daemon', 'version', `${view.version}, works with this bproxy ${BPROXY_VERSION}`));
    return { checks, view };
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    const fix =
      error.code === 'VERSION_MISMATCH'
        ? '`bproxy service stop`, then `bproxy service start` (a daemon of this version)'
        : error.code === 'UNSAFE_STATE_FILE'
          ? 'fix the file it names (see the files check above)'
          : 'restart the daemon: `bproxy service stop && bproxy service start`';
    checks.push(fail('daemon', 'version', `${error.code}: ${error.message}`, fix));
    return { checks, view: null };
  } finally {
    client.close();
  }
}
