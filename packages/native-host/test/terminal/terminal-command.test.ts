/**
 * What a terminal runs on each platform, injected: BPROXY_TERMINAL_COMMAND, else claude on PATH
 * (npm's claude.cmd through cmd.exe on Windows), else the shell — PowerShell 7, Windows PowerShell or
 * cmd.exe on Windows, $SHELL or /bin/zsh on macOS, $SHELL or /bin/sh on Linux — and the `bproxy`
 * launcher put first on the terminal's PATH (a batch file on Windows).
 */
import { describe, expect, it } from 'vitest';
import {
  cliLauncher,
  fallbackShell,
  onPath,
  terminalCommand,
  terminalEnv,
  type HostPlatform,
} from '../../src/terminal/terminal-command';

const host = (platform: NodeJS.Platform, files: string[]): HostPlatform => ({
  platform,
  isExecutable: (file) => files.includes(file),
});

describe('the terminal program', () => {
  it('Windows: PowerShell 7 on PATH, else Windows PowerShell, else cmd.exe', () => {
    const env = { PATH: 'C:\\Windows\\System32;C:\\Program Files\\PowerShell\\7', SystemRoot: 'C:\\Windows' };
    expect(fallbackShell(env, host('win32', ['C:\\Program Files\\PowerShell\\7\\pwsh.exe']))).toEqual([
      'C:\\Program Files\\PowerShell\\7\\pwsh.exe',
      '-NoLogo',
    ]);
    const legacy = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    expect(fallbackShell(env, host('win32', [legacy]))).toEqual([legacy, '-NoLogo']);
    expect(fallbackShell({ ...env, ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, host('win32', []))).toEqual([
      'C:\\Windows\\system32\\cmd.exe',
    ]);
    expect(fallbackShell({}, host('win32', []))).toEqual(['C:\\Windows\\System32\\cmd.exe']);
  });

  it('macOS: $SHELL, else /bin/zsh; Linux: $SHELL, else /bin/sh', () => {
    expect(
      fallbackShell({ SHELL: '/opt/homebrew/bin/fish' }, host('darwin', ['/opt/homebrew/bin/fish'])),
    ).toEqual(['/opt/homebrew/bin/fish']);
    expect(fallbackShell({ SHELL: 'fish' }, host('darwin', ['fish']))).toEqual(['/bin/zsh']);
    expect(fallbackShell({}, host('darwin', []))).toEqual(['/bin/zsh']);
    expect(fallbackShell({ SHELL: '/bin/bash' }, host('linux', ['/bin/bash']))).toEqual(['/bin/bash']);
    expect(fallbackShell({ SHELL: '/gone' }, host('linux', []))).toEqual(['/bin/sh']);
  });

  it('claude first: npm’s claude.cmd through cmd.exe on Windows, claude on Unix', () => {
    const win = { PATH: 'C:\\Users\\u\\AppData\\Roaming\\npm', ComSpec: 'C:\\Windows\\system32\\cmd.exe' };
    expect(terminalCommand(win, host('win32', ['C:\\Users\\u\\AppData\\Roaming\\npm\\claude.cmd']))).toEqual([
      'C:\\Windows\\system32\\cmd.exe',
      '/d',
      '/k',
      'C:\\Users\\u\\AppData\\Roaming\\npm\\claude.cmd',
    ]);
    expect(terminalCommand(win, host('win32', ['C:\\Users\\u\\AppData\\Roaming\\npm\\claude.exe']))).toEqual([
      'C:\\Users\\u\\AppData\\Roaming\\npm\\claude.exe',
    ]);
    expect(
      terminalCommand({ PATH: '/usr/local/bin:/usr/bin' }, host('darwin', ['/usr/local/bin/claude'])),
    ).toEqual(['/usr/local/bin/claude']);
    expect(
      terminalCommand({ PATH: '/usr/bin', BPROXY_TERMINAL_COMMAND: 'bash -l' }, host('linux', [])),
    ).toEqual(['bash', '-l']);
    expect(terminalCommand({ PATH: '/usr/bin' }, host('darwin', []))).toEqual(['/bin/zsh']);
  });

  it('searches PATH with PATHEXT on Windows only', () => {
    expect(onPath('claude', 'C:\\a;C:\\b', host('win32', ['C:\\b\\claude.bat']))).toBe('C:\\b\\claude.bat');
    expect(onPath('claude', 'C:\\a', host('win32', ['C:\\a\\claude.cmd']), '.EXE')).toBeNull();
    expect(onPath('claude', '/a:/b', host('linux', ['/b/claude']))).toBe('/b/claude');
    expect(onPath('claude', 'rel:/b', host('linux', ['rel/claude']))).toBeNull();
  });

  it('the bproxy launcher: a sh script, or a batch file on Windows', () => {
    expect(cliLauncher(['/usr/bin/node', "/o'k/bproxy.mjs"], 'linux')).toEqual({
      name: 'bproxy',
      text: `#!/bin/sh\nexec '/usr/bin/node' '/o'\\''k/bproxy.mjs' "$@"\n`,
    });
    expect(cliLauncher(['C:\\Program Files\\nodejs\\node.exe', 'C:\\b\\bproxy.mjs'], 'win32')).toEqual({
      name: 'bproxy.cmd',
      text: '@"C:\\Program Files\\nodejs\\node.exe" "C:\\b\\bproxy.mjs" %*\r\n',
    });
  });

  it('the terminal’s environment says `bproxy` runs in the side panel’s Terminal, whatever was inherited', () => {
    const env = terminalEnv({
      env: { PATH: '/usr/bin', BPROXY_AGENT_KIND: 'cli', BPROXY_SESSION: 'other' },
      home: '/h',
      session: 'mine',
      binDir: '/h/host/bin',
    });
    expect(env.BPROXY_AGENT_KIND).toBe('terminal');
    expect(env.BPROXY_SESSION).toBe('mine');
  });
});
