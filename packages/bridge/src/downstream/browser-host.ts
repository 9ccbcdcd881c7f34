/**
 * The machine the real browser runs on, as the bridge needs it: list the browser processes with their
 * command lines, launch one, stop one, read the DevTools port a profile's browser bound. Two
 * implementations: this machine (local-host.ts) and the Windows side of WSL through powershell.exe
 * (wsl-host.ts). A remote DevTools endpoint has no host: the bridge never launches or stops it.
 */

export interface BrowserProcess {
  readonly pid: number;
  /** The command line split into arguments, program first. */
  readonly args: readonly string[];
  /** The binary, when the host can tell. */
  readonly executablePath: string | undefined;
}

export interface LaunchedProcess {
  readonly pid: number;
  /**
   * When the host can see Chrome's stderr: its "DevTools listening on ws://…" URL, or the line in
   * which Chrome says it will not listen (Chrome 136+ on the default data directory).
   */
  readonly listening: Promise<{ url: string } | { refused: string }> | undefined;
  /** Resolves when the process exited during start-up (local only), with what it printed. */
  readonly exited: Promise<string> | undefined;
}

export interface BrowserHost {
  readonly kind: 'local' | 'wsl';
  /** Where the browser's DevTools port is reached from here. */
  readonly debuggerHost: string;
  /** Browser root processes (not renderers, GPU and the like) of the configured binary's family. */
  list(): Promise<BrowserProcess[]>;
  /** One process by pid, undefined when it is gone. */
  find(pid: number): Promise<BrowserProcess | undefined>;
  launch(executablePath: string, args: readonly string[]): Promise<LaunchedProcess>;
  stop(pid: number): Promise<void>;
  /** The port and browser path in `<userDataDir>/DevToolsActivePort`, undefined when absent. */
  readActivePort(userDataDir: string): Promise<{ port: number; path: string } | undefined>;
  /** Removes a DevToolsActivePort left by a browser that died, so a new launch is not misread. */
  removeActivePort(userDataDir: string): Promise<void>;
  /** Whether two profile paths name the same directory on this host. */
  sameProfile(a: string, b: string): boolean;
  /** The profile used when neither the configuration nor the tool names one. */
  defaultProfile(): Promise<string>;
  /** Chrome's own default data directories on this host (where Chrome 136+ refuses remote debugging). */
  chromeDefaultProfiles(): Promise<string[]>;
}

/** The value of `--name=value` in an argument list (the last one wins, as in Chrome). */
export function switchValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const arg of args) {
    if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  }
  return value;
}

export function hasSwitch(args: readonly string[], name: string): boolean {
  return args.some((arg) => arg === name || arg.startsWith(`${name}=`));
}

/** Chrome's headless switch in any of its forms, except an explicit `--headless=false`. */
export function isHeadlessCommandLine(args: readonly string[]): boolean {
  return args.some(
    (arg) => arg === '--headless' || (arg.startsWith('--headless=') && arg !== '--headless=false'),
  );
}
