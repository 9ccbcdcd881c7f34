/**
 * Who widens the folders agents may upload from: a person, through BPROXY_HOME/files.json (read with
 * the checks of every state file) or `service start --allow-files DIR` — never an implicit start, which
 * a client (an agent's own CLI or MCP server) makes.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserArgs, parseDaemonArgs } from '../../src/lifecycle/daemon-args';
import { readFilesConfig } from '../../src/lifecycle/files-config';
import { statePaths } from '../../src/lifecycle/paths';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function paths() {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-files-config-'));
  roots.push(root);
  const p = statePaths(join(root, 'home'));
  mkdirSync(p.home, { recursive: true, mode: 0o700 });
  return p;
}

describe('the folders a person allows (files.json, --allow-files)', () => {
  it('reads the absolute folders of files.json, none when there is no file', () => {
    const p = paths();
    expect(readFilesConfig(p)).toEqual([]);
    writeFileSync(p.files, JSON.stringify({ allow: ['/srv/for-agents', '/home/me/up'] }), { mode: 0o600 });
    expect(readFilesConfig(p)).toEqual(['/srv/for-agents', '/home/me/up']);
  });

  it('refuses files.json open to others, a symlink, a relative folder or another shape (fail closed)', () => {
    const p = paths();
    writeFileSync(p.files, JSON.stringify({ allow: ['/srv'] }), { mode: 0o600 });
    chmodSync(p.files, 0o644);
    expect(() => readFilesConfig(p)).toThrow(/its mode is 0644/);
    rmSync(p.files);
    const planted = join(p.home, '..', 'planted.json');
    writeFileSync(planted, JSON.stringify({ allow: ['/'] }), { mode: 0o600 });
    symlinkSync(planted, p.files);
    expect(() => readFilesConfig(p)).toThrow(/symbolic link/);
    rmSync(p.files);
    for (const bad of ['nope', '{"allow":["relative/dir"]}', '{"allow":"/srv"}', '{"allow":[],"x":1}']) {
      writeFileSync(p.files, bad, { mode: 0o600 });
      expect(() => readFilesConfig(p), bad).toThrow(/is not \{"allow"/);
      rmSync(p.files);
    }
  });

  it('takes --allow-files DIR (repeatable, absolute) from service start, and refuses it on an implicit start', () => {
    expect(parseDaemonArgs(['--allow-files', '/a', '--allow-files', '/b']).allowFiles).toEqual(['/a', '/b']);
    expect(browserArgs({ allowFiles: ['/a', '/b'] })).toEqual(['--allow-files', '/a', '--allow-files', '/b']);
    expect(() => parseDaemonArgs(['--allow-files', 'rel'])).toThrow(/absolute folder/);
    expect(() => parseDaemonArgs(['--implicit', '--allow-files', '/a'])).toThrow(/not an implicit start/);
    expect(parseDaemonArgs(['--implicit']).allowFiles).toEqual([]);
  });
});
