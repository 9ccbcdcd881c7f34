/**
 * Named profiles for the browser the daemon launches (`--profile NAME`, BPROXY_PROFILE): its user data
 * kept in BPROXY_HOME/profiles/NAME across launches, so a login done once holds next time. The folder
 * is made 0700 and checked like every private folder of the state directory (a link, another owner or
 * a mode open to others is refused). Chromium locks a profile to one browser: before each launch the
 * lock is read, and a profile another live browser holds is refused with a sentence saying so, rather
 * than Chromium's silent hand-over to that browser.
 */
import { lstatSync, mkdirSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LifecycleError, ensurePrivateFolder, errnoCode } from '@bproxy/client/lifecycle';

/** The profile's folder, created 0700 and checked; throws LifecycleError ('unsafe-state') when unsafe. */
export function profileFolder(home: string, name: string): string {
  const profiles = join(home, 'profiles');
  ensurePrivateFolder(home, profiles);
  const dir = join(profiles, name);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  const stats = lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  if (stats.isSymbolicLink() || !stats.isDirectory())
    throw new LifecycleError('unsafe-state', `refusing to use profile ${dir}: it is not a plain folder`);
  if (uid !== null && (stats.uid !== uid || (stats.mode & 0o077) !== 0))
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use profile ${dir}: it must be a folder of yours that no one else can open (chmod 700 ${dir})`,
    );
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

/**
 * Throws when another live browser on this machine holds the profile (Chromium's SingletonLock, a link
 * to "host-pid"). A lock left by a browser that is gone is Chromium's to take over, and is no refusal.
 */
export function assertProfileFree(dir: string, name: string): void {
  let target: string;
  try {
    target = readlinkSync(join(dir, 'SingletonLock'));
  } catch {
    return;
  }
  const dash = target.lastIndexOf('-');
  const host = target.slice(0, dash);
  const pid = Number(target.slice(dash + 1));
  if (dash < 0 || !Number.isSafeInteger(pid) || pid <= 0) return;
  if (host !== hostname() || alive(pid))
    throw new LifecycleError(
      'config',
      `profile "${name}" is in use by another browser (pid ${pid}${host === hostname() ? '' : ` on ${host}`}): Chromium lets one browser at a time use a profile. Close that browser, or start with another --profile`,
    );
}
