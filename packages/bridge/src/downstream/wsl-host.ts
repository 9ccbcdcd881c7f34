/**
 * Windows Chrome seen from WSL, through interop: `powershell.exe` lists chrome.exe processes with
 * their command lines, starts Chrome and stops it. Chrome's DevTools port is reached at `wslHost`
 * (127.0.0.1 with WSL's mirrored networking, which shares loopback with Windows). Paths here are
 * Windows paths: a tool's Linux --user-data-dir means nothing to Windows Chrome, so the profile comes
 * from the configuration or defaults to %LOCALAPPDATA%\bproxy\bridge-profile.
 */
import { win32 } from 'node:path';
import type { BrowserHost, BrowserProcess, LaunchedProcess } from './browser-host';
import { hasSwitch } from './browser-host';
import { parseDevToolsActivePort } from '@bproxy/cdp/wire';
import { runPowerShell } from './powershell';
import { joinWindowsCommandLine, sameWindowsPath, splitWindowsCommandLine } from './windows-command-line';

interface ProcessRow {
  pid?: unknown;
  commandLine?: unknown;
  executablePath?: unknown;
}

function parseRows(stdout: string): BrowserProcess[] {
  const text = stdout.trim();
  if (text === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(
      `powershell.exe answered the process list with something other than JSON: ${text.slice(0, 200)}`,
    );
  }
  const rows = (Array.isArray(value) ? value : [value]) as ProcessRow[];
  const processes: BrowserProcess[] = [];
  for (const row of rows) {
    if (typeof row.pid !== 'number' || typeof row.commandLine !== 'string') continue;
    processes.push({
      pid: row.pid,
      args: splitWindowsCommandLine(row.commandLine),
      executablePath: typeof row.executablePath === 'string' ? row.executablePath : undefined,
    });
  }
  return processes;
}

export class WslHost implements BrowserHost {
  readonly kind = 'wsl';
  readonly debuggerHost: string;
  private localAppData: string | undefined;

  constructor(private readonly options: { powershell: string; executablePath: string; wslHost: string }) {
    this.debuggerHost = options.wslHost;
  }

  private get imageName(): string {
    return win32.basename(this.options.executablePath);
  }

  async list(): Promise<BrowserProcess[]> {
    const rows = parseRows(await runPowerShell(this.options.powershell, 'list', { name: this.imageName }));
    return rows.filter((row) => !hasSwitch(row.args, '--type'));
  }

  async find(pid: number): Promise<BrowserProcess | undefined> {
    const rows = parseRows(
      await runPowerShell(this.options.powershell, 'list', { name: this.imageName, pid }),
    );
    return rows.find((row) => row.pid === pid);
  }

  async launch(executablePath: string, args: readonly string[]): Promise<LaunchedProcess> {
    const out = await runPowerShell(this.options.powershell, 'launch', {
      file: executablePath,
      commandLine: joinWindowsCommandLine(args),
    });
    const pid = Number(out.trim());
    if (!Number.isInteger(pid) || pid <= 0)
      throw new Error(`powershell.exe did not report the pid of ${executablePath}`);
    // Start-Process gives us neither Chrome's stderr nor its exit: the port file tells when it is up.
    return { pid, listening: undefined, exited: undefined };
  }

  async stop(pid: number): Promise<void> {
    await runPowerShell(this.options.powershell, 'stop', { pid });
  }

  async readActivePort(userDataDir: string): Promise<{ port: number; path: string } | undefined> {
    const text = await runPowerShell(this.options.powershell, 'read-port', { userDataDir });
    return parseDevToolsActivePort(text);
  }

  async removeActivePort(userDataDir: string): Promise<void> {
    await runPowerShell(this.options.powershell, 'remove-port', { userDataDir });
  }

  sameProfile(a: string, b: string): boolean {
    return sameWindowsPath(a, b);
  }

  private async appData(): Promise<string> {
    this.localAppData ??= (await runPowerShell(this.options.powershell, 'local-app-data', {})).trim();
    if (this.localAppData === '') throw new Error('powershell.exe did not report %LOCALAPPDATA%');
    return this.localAppData;
  }

  async defaultProfile(): Promise<string> {
    return win32.join(await this.appData(), 'bproxy', 'bridge-profile');
  }

  async chromeDefaultProfiles(): Promise<string[]> {
    const base = await this.appData();
    return ['Google\\Chrome', 'Google\\Chrome Beta', 'Google\\Chrome SxS', 'Chromium'].map((d) =>
      win32.join(base, d, 'User Data'),
    );
  }
}
