/**
 * A real libsecret keyring for a test, as a desktop session has one: a private D-Bus session bus
 * (dbus-daemon, with no service directories, so nothing is started behind the test's back) and
 * gnome-keyring-daemon on it with its login keyring created and unlocked by a password given on
 * stdin, both in a temporary HOME. The test owns both processes and stops them by their ids.
 * `npm test` and `.ci/run` install Debian's gnome-keyring, libsecret-tools and dbus when missing
 * (scripts/ensure.mjs `ensureKeyring`), as they do Chromium and Xvfb.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The programs a session keyring needs, and the Debian package of each. */
export const KEYRING_TOOLS = {
  '/usr/bin/dbus-daemon': 'dbus',
  '/usr/bin/dbus-send': 'dbus',
  '/usr/bin/gnome-keyring-daemon': 'gnome-keyring',
  '/usr/bin/secret-tool': 'libsecret-tools',
} as const;

/** The tools missing on this machine ([] when a session keyring can run). */
export function missingKeyringTools(): string[] {
  return Object.keys(KEYRING_TOOLS).filter((path) => !existsSync(path));
}

export interface SessionKeyring {
  /** HOME, XDG_RUNTIME_DIR, XDG_DATA_HOME and DBUS_SESSION_BUS_ADDRESS of the session. */
  readonly env: Record<string, string>;
  /** The temporary HOME (the keyring's files are under .local/share/keyrings). */
  readonly home: string;
  /** Runs secret-tool in the session: `input` on stdin. */
  secretTool(args: readonly string[], input?: string): { status: number | null; stdout: string };
  /** Locks the login keyring, as a screen lock or `Lock` in Seahorse does; true when it did. */
  lock(): boolean;
  /** Stops the keyring and the bus (SIGTERM, SIGKILL after a bound); never throws. */
  stop(): Promise<void>;
}

const BUS_CONFIG = (
  dir: string,
) => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

function stopWithin(child: ChildProcess, ms = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The first line a child prints on stdout, or an error with its stderr when it exits first. */
function firstLine(child: ChildProcess, what: string, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${what} printed nothing in ${ms} ms: ${err}`)), ms);
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const end = out.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, end).trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready: ${err}`));
    });
  });
}

/** Starts a session bus and an unlocked gnome-keyring on it; resolves once the keyring owns its name. */
export async function startSessionKeyring(timeoutMs = 15_000): Promise<SessionKeyring> {
  const missing = missingKeyringTools();
  if (missing.length > 0)
    throw new Error(
      `no session keyring: missing ${missing.join(', ')} (npm test installs them; Debian: apt-get install -y gnome-keyring libsecret-tools dbus)`,
    );
  const root = mkdtempSync(join(tmpdir(), 'bproxy-keyring-'));
  const home = join(root, 'home');
  const runtime = join(root, 'run');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  writeFileSync(join(root, 'bus.conf'), BUS_CONFIG(runtime));
  const base = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_RUNTIME_DIR: runtime,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  const bus = spawn(
    'dbus-daemon',
    [`--config-file=${join(root, 'bus.conf')}`, '--nofork', '--nopidfile', '--print-address=1'],
    { env: base, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let keyring: ChildProcess | undefined;
  const stop = async (): Promise<void> => {
    if (keyring !== undefined) await stopWithin(keyring);
    await stopWithin(bus);
  };
  try {
    const address = await firstLine(bus, 'dbus-daemon', timeoutMs);
    const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
    // --unlock reads the login keyring's password on stdin, creating that keyring unlocked.
    keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let keyringErr = '';
    keyring.stderr?.on('data', (d: Buffer) => (keyringErr += d.toString()));
    keyring.stdin?.end('a test password');
    const owned = (): boolean =>
      spawnSync(
        'dbus-send',
        [
          '--session',
          '--print-reply',
          '--dest=org.freedesktop.DBus',
          '/org/freedesktop/DBus',
          'org.freedesktop.DBus.NameHasOwner',
          'string:org.freedesktop.secrets',
        ],
        { env, encoding: 'utf8', timeout: 5_000 },
      ).stdout.includes('boolean true');
    // Ready when the keyring owns its bus name (a condition asked of the bus, not a delay).
    const end = Date.now() + timeoutMs;
    while (!owned()) {
      if (keyring.exitCode !== null) throw new Error(`gnome-keyring-daemon exited: ${keyringErr}`);
      if (Date.now() > end) throw new Error(`gnome-keyring-daemon not on the bus in ${timeoutMs} ms`);
      await new Promise((r) => setImmediate(r));
    }
    return {
      env,
      home,
      secretTool: (args, input = '') => {
        const r = spawnSync('secret-tool', [...args], { env, input, encoding: 'utf8', timeout: 10_000 });
        return { status: r.status, stdout: r.stdout };
      },
      lock: () =>
        spawnSync(
          'dbus-send',
          [
            '--session',
            '--print-reply',
            '--dest=org.freedesktop.secrets',
            '/org/freedesktop/secrets',
            'org.freedesktop.Secret.Service.Lock',
            'array:objpath:/org/freedesktop/secrets/collection/login',
          ],
          { env, encoding: 'utf8', timeout: 5_000 },
        ).status === 0,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
