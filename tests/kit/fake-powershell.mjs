#!/usr/bin/env node
// A stand-in for Windows' powershell.exe as the bridge calls it through WSL interop, for the WSL e2e
// test (it is put on PATH as `powershell.exe`). It understands the bridge's scripts by their
// `# bproxy-bridge <operation>` line and JSON parameters, keeps a process table of the "Windows
// Chrome" it started (a real Chromium, its Windows paths mapped under $FAKE_PS_STATE), and records
// every call in $FAKE_PS_STATE/calls.jsonl.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const state = process.env.FAKE_PS_STATE;
const chrome = process.env.FAKE_PS_CHROMIUM;
if (!state || !chrome) {
  process.stderr.write('FAKE_PS_STATE and FAKE_PS_CHROMIUM must be set\n');
  process.exit(2);
}
const encoded = process.argv[process.argv.indexOf('-EncodedCommand') + 1] ?? '';
const script = Buffer.from(encoded, 'base64').toString('utf16le');
const operation = /^# bproxy-bridge (\S+)/.exec(script)?.[1];
const literal = /^\$p = '(.*)' \| ConvertFrom-Json$/m.exec(script)?.[1] ?? '{}';
const params = JSON.parse(literal.replace(/''/g, "'"));
appendFileSync(
  join(state, 'calls.jsonl'),
  `${JSON.stringify({ operation, params, caller: process.ppid })}\n`,
);

/** C:\Users\x → $FAKE_PS_STATE/C/Users/x */
const toLinux = (path) => join(state, path.replace(/^([A-Za-z]):/, '$1').replace(/\\/g, '/'));
const tableFile = join(state, 'processes.json');
const table = () => (existsSync(tableFile) ? JSON.parse(readFileSync(tableFile, 'utf8')) : []);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
};
/** Enough of Windows' command-line splitting for the bridge's own quoting. */
const split = (line) => [...line.matchAll(/(?:"((?:\\.|[^"])*)"|(\S+))/g)].map((m) => m[1] ?? m[2]);

switch (operation) {
  case 'local-app-data':
    process.stdout.write('C:\\Users\\tester\\AppData\\Local');
    break;
  case 'list': {
    const rows = table().filter(
      (row) =>
        alive(row.pid) &&
        (params.pid ? row.pid === params.pid : row.executablePath.toLowerCase().endsWith(`\\${params.name}`)),
    );
    process.stdout.write(JSON.stringify(rows));
    break;
  }
  case 'launch': {
    const args = split(params.commandLine).map((arg) =>
      arg.startsWith('--user-data-dir=')
        ? `--user-data-dir=${toLinux(arg.slice('--user-data-dir='.length))}`
        : arg,
    );
    // Chromium here runs as root in a container, which a Windows Chrome never needs.
    if (process.getuid?.() === 0) args.push('--no-sandbox');
    const profile = args.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
    if (profile) mkdirSync(profile, { recursive: true });
    const child = spawn(chrome, args, { detached: true, stdio: 'ignore' });
    child.unref();
    writeFileSync(
      tableFile,
      JSON.stringify([
        ...table(),
        {
          pid: child.pid,
          commandLine: `"${params.file}" ${params.commandLine}`,
          executablePath: params.file,
        },
      ]),
    );
    process.stdout.write(String(child.pid));
    break;
  }
  case 'read-port': {
    const file = join(toLinux(params.userDataDir), 'DevToolsActivePort');
    if (existsSync(file)) process.stdout.write(readFileSync(file, 'utf8'));
    break;
  }
  case 'remove-port':
    rmSync(join(toLinux(params.userDataDir), 'DevToolsActivePort'), { force: true });
    break;
  case 'stop':
    try {
      process.kill(params.pid, 'SIGKILL');
    } catch {
      // Stop-Process -ErrorAction SilentlyContinue
    }
    break;
  default:
    process.stderr.write(`unknown operation ${operation}\n`);
    process.exit(1);
}
