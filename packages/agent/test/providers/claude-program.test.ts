/**
 * The `claude` program on each platform, injected: PATH as the system searches it on Linux and macOS;
 * on Windows claude.exe, or npm's claude.cmd read for the script it runs, which this Node then runs
 * (no shell between the provider and its arguments).
 */
import { describe, expect, it } from 'vitest';
import { claudeProgram, shimTarget, type ProgramHost } from '../../src/providers/claude-program';

/** A batch file of the shape npm's cmd-shim writes for a bin script. */
const SHIM = [
  '@ECHO off',
  'GOTO start',
  ':find_dp0',
  'SET dp0=%~dp0',
  'EXIT /b',
  ':start',
  'SETLOCAL',
  'CALL :find_dp0',
  'IF EXIST "%dp0%\\node.exe" (',
  '  SET "_prog=%dp0%\\node.exe"',
  ') ELSE (',
  '  SET "_prog=node"',
  '  SET PATHEXT=%PATHEXT:;.JS;=;%',
  ')',
  'endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\node_modules\\@anthropic-ai\\claude-code\\cli.js" %*',
  '',
].join('\r\n');

function windows(files: Record<string, string>): ProgramHost {
  return {
    platform: 'win32',
    isFile: (file) => file in files,
    readText: (file) => {
      const text = files[file];
      if (text === undefined) throw new Error(`ENOENT ${file}`);
      return text;
    },
    node: 'C:\\nodejs\\node.exe',
  };
}

describe('finding claude', () => {
  it('Linux and macOS: claude, found on PATH by the system', () => {
    for (const platform of ['linux', 'darwin'] as const)
      expect(claudeProgram({ PATH: '/usr/bin' }, { ...windows({}), platform })).toEqual({
        command: 'claude',
        prefix: [],
      });
  });

  it('Windows: npm’s claude.cmd runs its cli.js with this Node', () => {
    const npm = 'C:\\Users\\u\\AppData\\Roaming\\npm';
    const cli = `${npm}\\node_modules\\@anthropic-ai\\claude-code\\cli.js`;
    const host = windows({ [`${npm}\\claude.cmd`]: SHIM, [cli]: '' });
    expect(claudeProgram({ PATH: `C:\\Windows\\System32;${npm}` }, host)).toEqual({
      command: 'C:\\nodejs\\node.exe',
      prefix: [cli],
    });
    // Path spelled as Windows often spells it.
    expect(claudeProgram({ Path: npm }, host).prefix).toEqual([cli]);
  });

  it('Windows: claude.exe first in PATH order, as it is', () => {
    const host = windows({ 'C:\\Users\\u\\.local\\bin\\claude.exe': '', 'C:\\npm\\claude.cmd': SHIM });
    expect(claudeProgram({ PATH: 'C:\\Users\\u\\.local\\bin;C:\\npm' }, host)).toEqual({
      command: 'C:\\Users\\u\\.local\\bin\\claude.exe',
      prefix: [],
    });
  });

  it('Windows: a shim it cannot read, or none, leaves plain claude (reported as not found)', () => {
    expect(claudeProgram({ PATH: 'C:\\npm' }, windows({ 'C:\\npm\\claude.cmd': '@echo hi\r\n' }))).toEqual({
      command: 'claude',
      prefix: [],
    });
    expect(claudeProgram({ PATH: 'relative;C:\\none' }, windows({}))).toEqual({
      command: 'claude',
      prefix: [],
    });
  });

  it('reads the target of a shim, and refuses one that climbs out of its folder', () => {
    expect(shimTarget(SHIM)).toBe('node_modules\\@anthropic-ai\\claude-code\\cli.js');
    expect(shimTarget('"%dp0%\\..\\evil.js" %*')).toBeUndefined();
    expect(shimTarget('echo')).toBeUndefined();
  });
});
