/**
 * Running a few fixed PowerShell scripts on the Windows side of WSL. Each script starts with a
 * `# bproxy-bridge <operation>` line and takes its parameters as one JSON literal, so nothing the
 * bridge passes is ever spliced into code; it is sent as -EncodedCommand (UTF-16LE base64), which
 * survives WSL interop's command-line conversion byte for byte. Output is UTF-8 JSON or plain text.
 */
import { execFile } from 'node:child_process';

export type PowerShellOperation = 'list' | 'launch' | 'stop' | 'read-port' | 'remove-port' | 'local-app-data';

const BODIES: Readonly<Record<PowerShellOperation, string>> = {
  list: [
    '$filter = "Name=\'" + $p.name + "\'"',
    'if ($p.pid) { $filter = "ProcessId=" + [int]$p.pid }',
    '$rows = @(Get-CimInstance Win32_Process -Filter $filter | ForEach-Object {',
    '  [pscustomobject]@{ pid = $_.ProcessId; commandLine = $_.CommandLine; executablePath = $_.ExecutablePath } })',
    '[Console]::Out.Write((ConvertTo-Json -InputObject $rows -Compress))',
  ].join('\n'),
  launch: [
    '$proc = Start-Process -FilePath $p.file -ArgumentList $p.commandLine -PassThru',
    '[Console]::Out.Write($proc.Id)',
  ].join('\n'),
  stop: 'Stop-Process -Id ([int]$p.pid) -Force -ErrorAction SilentlyContinue',
  'read-port': [
    '$f = Join-Path $p.userDataDir "DevToolsActivePort"',
    'if (Test-Path -LiteralPath $f) { [Console]::Out.Write((Get-Content -LiteralPath $f -Raw)) }',
  ].join('\n'),
  'remove-port': [
    '$f = Join-Path $p.userDataDir "DevToolsActivePort"',
    'Remove-Item -LiteralPath $f -Force -ErrorAction SilentlyContinue',
  ].join('\n'),
  'local-app-data': "[Console]::Out.Write([Environment]::GetFolderPath('LocalApplicationData'))",
};

/** The script text for one operation; exported for the tests that check what reaches PowerShell. */
export function powerShellScript(operation: PowerShellOperation, params: Record<string, unknown>): string {
  // Inside a single-quoted PowerShell string only the quote itself needs doubling.
  const literal = JSON.stringify(params).replace(/'/g, "''");
  return [
    `# bproxy-bridge ${operation}`,
    "$ErrorActionPreference = 'Stop'",
    '[Console]::OutputEncoding = [Text.Encoding]::UTF8',
    `$p = '${literal}' | ConvertFrom-Json`,
    BODIES[operation],
  ].join('\n');
}

export function encodeCommand(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64');
}

export class PowerShellError extends Error {
  override readonly name = 'PowerShellError';
}

export function runPowerShell(
  powershell: string,
  operation: PowerShellOperation,
  params: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<string> {
  const args = [
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-EncodedCommand',
    encodeCommand(powerShellScript(operation, params)),
  ];
  return new Promise((resolve, reject) => {
    execFile(
      powershell,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const detail = stderr.trim().split('\n').slice(-3).join(' | ') || error.message;
          reject(new PowerShellError(`${powershell} (${operation}) failed: ${detail}`));
          return;
        }
        resolve(stdout.replace(/^\uFEFF/, ''));
      },
    );
  });
}
