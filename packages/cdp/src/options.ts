/**
 * What the daemon tells the CDP driver: which browser to drive and how to reach it.
 */

export type CdpMode = 'launch' | 'attach' | 'remote';

export interface CdpDriverOptions {
  mode: CdpMode;
  /** launch: the browser binary (default: findChrome()). */
  executablePath?: string;
  /** launch: headless unless false. */
  headless?: boolean;
  /** launch: parent directory of the fresh profile (default: the OS temp dir). attach: see userDataDir. */
  profilesDir?: string;
  /** attach: the profile whose DevToolsActivePort to read. launch: use this profile instead of a fresh one (kept on stop). */
  userDataDir?: string;
  /** attach: the browser's --remote-debugging-port on 127.0.0.1. */
  port?: number;
  /** attach/remote: a ws(s):// DevTools URL, or an http(s):// endpoint that serves /json/version. */
  wsUrl?: string;
  /** launch: extra Chromium flags. */
  args?: readonly string[];
  /** The client name in `hello` (default: headless, chromium when headed, attached or remote). */
  name?: string;
  /** Stable id in `hello`; default: random for launch, derived from the endpoint for attach/remote. */
  instanceId?: string;
  /** attach/remote: close the tabs this driver opened when it stops (the browser itself never is). */
  closeTabsOnStop?: boolean;
  /** The page bundle's source; default: loadPageBundle(). */
  pageScript?: string;
  /** Longest a browser start or connect may take (default 20 s). */
  connectTimeoutMs?: number;
  /**
   * launch only: let navigate and tab.open load file: URLs (`--allow-file-urls`). Off by default, and
   * ignored for attach and remote: those browsers are not bproxy's to open local files in.
   */
  allowFileUrls?: boolean;
  /**
   * launch only: where downloads go (the daemon's staging folder) and the cap; the daemon files them.
   * Without it, or for attach and remote, the browser's downloads are left as they are.
   */
  downloads?: { dir: string; maxBytes: number };
}

export function defaultName(options: Pick<CdpDriverOptions, 'mode' | 'headless'>): string {
  if (options.mode === 'launch') return options.headless === false ? 'chromium' : 'headless';
  return options.mode === 'attach' ? 'attached' : 'remote';
}
