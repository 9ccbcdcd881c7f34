/**
 * Where the `claude` program is, as the Claude Code provider spawns it (without a shell: the prompt
 * and the MCP configuration are arguments a shell would re-read). On Linux and macOS, `claude` found
 * on PATH by the system. On Windows, Node spawns .exe files only without a shell, so PATH is searched
 * here: claude.exe (Claude Code's own installer) is run as it is; claude.cmd, the shim npm writes for
 * `npm i -g @anthropic-ai/claude-code`, is read for the script it runs (the quoted
 * `"%dp0%\…\cli.js"` before `%*`), which is then run with this Node directly.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '@bproxy/client';

export interface ProgramHost {
  readonly platform: NodeJS.Platform;
  readonly isFile: (file: string) => boolean;
  readonly readText: (file: string) => string;
  /** The Node that runs a script npm's shim points at. */
  readonly node: string;
}

function isFile(file: string): boolean {
  try {
    accessSync(file, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

const THIS_HOST: ProgramHost = {
  platform: process.platform,
  isFile,
  readText: (file) => readFileSync(file, 'utf8'),
  node: process.execPath,
};

/** A program and the arguments that go before the provider's own. */
export interface Program {
  readonly command: string;
  readonly prefix: readonly string[];
}

/** The script an npm cmd shim runs, relative to the shim's folder; undefined when it is not one. */
export function shimTarget(text: string): string | undefined {
  const matches = [...text.matchAll(/"%~?dp0%?\\?([^"%]+)"\s+%\*/g)];
  const target = matches.at(-1)?.[1];
  return target === undefined || target.includes('..') ? undefined : target;
}

export function claudeProgram(env: Env, host: ProgramHost = THIS_HOST): Program {
  if (host.platform !== 'win32') return { command: 'claude', prefix: [] };
  const p = path.win32;
  for (const dir of (env.PATH ?? env.Path ?? '').split(p.delimiter)) {
    if (dir === '' || !p.isAbsolute(dir)) continue;
    const exe = p.join(dir, 'claude.exe');
    if (host.isFile(exe)) return { command: exe, prefix: [] };
    const shim = p.join(dir, 'claude.cmd');
    if (!host.isFile(shim)) continue;
    let target: string | undefined;
    try {
      target = shimTarget(host.readText(shim));
    } catch {
      target = undefined;
    }
    if (target === undefined) continue;
    const script = p.join(dir, target);
    if (host.isFile(script)) return { command: host.node, prefix: [script] };
  }
  return { command: 'claude', prefix: [] };
}
