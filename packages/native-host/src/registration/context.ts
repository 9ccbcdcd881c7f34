/**
 * Where registration happens: the operating system's layout (platform, the user's home, the folders
 * the environment names), the state directory whose daemon the host serves, and — on Windows — the
 * runner of `reg.exe`. Everything is passed in, so the Linux, macOS and Windows layouts are all
 * exercised on one machine by tests, into temporary folders and a scripted registry.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '@bproxy/client';
import { resolveHome } from '@bproxy/client/lifecycle';
import { NATIVE_HOST_NAME } from '@bproxy/protocol';
import { hostDir } from '../host-log';
import type { BrowserSpec } from './browsers';
import { systemRegistry, type RegistryRunner } from './windows-registry';

export type RegistrationPlatform = 'linux' | 'darwin' | 'win32';

export interface RegistrationContext {
  readonly platform: RegistrationPlatform;
  /** The user's home folder. */
  readonly home: string;
  readonly env: Env;
  /** The absolute BPROXY_HOME. */
  readonly stateHome: string;
  /** Prefix of system-wide program locations (/opt, /usr/bin, /Applications); default the root. */
  readonly systemRoot: string;
  readonly registry: RegistryRunner;
}

export interface ContextOptions {
  readonly env?: Env;
  readonly platform?: NodeJS.Platform;
  readonly home?: string;
  readonly systemRoot?: string;
  readonly registry?: RegistryRunner;
}

export function registrationContext(options: ContextOptions = {}): RegistrationContext {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux' && platform !== 'darwin' && platform !== 'win32')
    throw new Error(`native messaging hosts are registered on Linux, macOS and Windows, not on ${platform}`);
  const home = options.home ?? homedir();
  return {
    platform,
    home,
    env,
    stateHome: resolveHome(env, () => home),
    systemRoot: options.systemRoot ?? '/',
    registry: options.registry ?? systemRegistry,
  };
}

/** Where a browser finds our host: a manifest file in its folder, or a registry key naming one. */
export type HostLocation =
  { readonly kind: 'file'; readonly path: string } | { readonly kind: 'registry'; readonly key: string };

const manifestFile = `${NATIVE_HOST_NAME}.json`;

function configHome(context: RegistrationContext): string {
  const xdg = context.env.XDG_CONFIG_HOME;
  return xdg !== undefined && isAbsolute(xdg) ? xdg : join(context.home, '.config');
}

function supportHome(context: RegistrationContext): string {
  return join(context.home, 'Library', 'Application Support');
}

function localAppData(context: RegistrationContext): string {
  return context.env.LOCALAPPDATA ?? join(context.home, 'AppData', 'Local');
}

/** Windows paths in the table are written with backslashes; join them with this system's separator. */
const winPath = (relative: string): string[] => relative.split('\\');

/** Where `browser` looks for our host on this platform; null when it has no build here. */
export function hostLocation(context: RegistrationContext, browser: BrowserSpec): HostLocation | null {
  switch (context.platform) {
    case 'linux':
      return browser.linux === undefined
        ? null
        : {
            kind: 'file',
            path: join(configHome(context), browser.linux.config, 'NativeMessagingHosts', manifestFile),
          };
    case 'darwin':
      return browser.darwin === undefined
        ? null
        : {
            kind: 'file',
            path: join(supportHome(context), browser.darwin.support, 'NativeMessagingHosts', manifestFile),
          };
    case 'win32':
      return browser.win32 === undefined
        ? null
        : { kind: 'registry', key: `HKCU\\${browser.win32.key}\\NativeMessagingHosts\\${NATIVE_HOST_NAME}` };
  }
}

/**
 * A browser's profile folder holds `Local State` once the browser has run. The folder alone proves
 * nothing: installing creates its NativeMessagingHosts subfolder.
 */
const profile = (folder: string): string => join(folder, 'Local State');

/** Whether `browser` is installed for this user: it has run (its profile exists) or its program exists. */
export function isInstalled(context: RegistrationContext, browser: BrowserSpec): boolean {
  const system = (path: string) => join(context.systemRoot, path);
  let candidates: string[] = [];
  if (context.platform === 'linux' && browser.linux !== undefined) {
    candidates = [
      profile(join(configHome(context), browser.linux.config)),
      ...browser.linux.programs.map(system),
    ];
  } else if (context.platform === 'darwin' && browser.darwin !== undefined) {
    candidates = [
      profile(join(supportHome(context), browser.darwin.support)),
      system(join('Applications', browser.darwin.app)),
      join(context.home, 'Applications', browser.darwin.app),
    ];
  } else if (context.platform === 'win32' && browser.win32 !== undefined) {
    const roots = [localAppData(context), context.env.ProgramFiles, context.env['ProgramFiles(x86)']];
    candidates = [
      profile(join(localAppData(context), ...winPath(browser.win32.userData))),
      ...roots.flatMap((root) =>
        root === undefined ? [] : [join(root, ...winPath(browser.win32?.program ?? ''))],
      ),
    ];
  }
  return candidates.some((path) => existsSync(path));
}

/** The files bproxy writes for the host, in BPROXY_HOME/host. */
export interface HostFiles {
  readonly dir: string;
  readonly launcher: string;
  /** The manifest the Windows registry keys point at (other platforms put one in each browser folder). */
  readonly sharedManifest: string;
  /** What install wrote, for uninstall. */
  readonly record: string;
}

export function hostFiles(context: RegistrationContext): HostFiles {
  const dir = hostDir(context.stateHome);
  return {
    dir,
    launcher: join(dir, context.platform === 'win32' ? 'bproxy-host.bat' : 'bproxy-host'),
    sharedManifest: join(dir, manifestFile),
    record: join(dir, 'install.json'),
  };
}
