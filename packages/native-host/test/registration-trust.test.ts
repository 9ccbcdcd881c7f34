/**
 * The walk behind `host install`'s refusal and `host status`'s "unsafe": every folder above a file the
 * browser would run, through symbolic links (relative ones with `..` included), owner and mode checked.
 * Real folders in a temporary directory; other owners are made with chown (the suite runs as root in CI).
 */
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPrivateGroup, launchedTrustProblems, trustProblems } from '../src/registration/trust';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bproxy-trust-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function file(...parts: string[]): string {
  const path = join(root, ...parts);
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o755 });
  writeFileSync(path, '', { mode: 0o755 });
  return path;
}

const uid = process.getuid?.() ?? 0;

describe('what the browser would run', () => {
  it('is fine in folders of ours or root, and in a sticky folder everyone may add to', () => {
    const node = file('opt', 'node', 'bin', 'node');
    expect(trustProblems(node)).toEqual([]);
    chmodSync(join(root, 'opt'), 0o1777);
    expect(trustProblems(node)).toEqual([]);
    // Run as root, ours and root's are one owner: as another user, the folders root owns above (the
    // root folder, the temporary folder) must still pass, as root's.
    const me = uid === 0 ? 4242 : uid;
    for (const path of [join(root, 'opt'), join(root, 'opt', 'node'), join(root, 'opt', 'node', 'bin'), node])
      chownSync(path, me, process.getgid?.() ?? 0);
    expect(trustProblems(node, { uid: me, privateGroup: () => false })).toEqual([]);
  });

  it('names each folder above it that others can write to, and the file itself', () => {
    const node = file('opt', 'node', 'bin', 'node');
    chmodSync(join(root, 'opt'), 0o777);
    // Group-writable for a group others are in (nogroup stands in for a shared one).
    chownSync(join(root, 'opt', 'node', 'bin'), uid, 65534);
    chmodSync(join(root, 'opt', 'node', 'bin'), 0o775);
    chmodSync(node, 0o757);
    expect(trustProblems(node)).toEqual([
      `the folder ${join(root, 'opt')} is writable by group or others (mode 0777), so they can change what the browser runs as you (fix: chmod go-w ${join(root, 'opt')})`,
      `the folder ${join(root, 'opt', 'node', 'bin')} is writable by group or others (mode 0775), so they can change what the browser runs as you (fix: chmod go-w ${join(root, 'opt', 'node', 'bin')})`,
      `the file ${node} is writable by group or others (mode 0757), so they can change what the browser runs as you (fix: chmod go-w ${node})`,
    ]);
  });

  it('follows symbolic links, relative ones with .. too, and checks the folders of their targets and their owners', () => {
    const real = file('cellar', 'node', '22', 'bin', 'node');
    mkdirSync(join(root, 'bin'), { mode: 0o755 });
    const link = join(root, 'bin', 'node');
    symlinkSync(join('..', 'cellar', 'node', '22', 'bin', 'node'), link);
    expect(trustProblems(link)).toEqual([]);
    chmodSync(join(root, 'cellar', 'node'), 0o777);
    expect(trustProblems(link)).toEqual([
      expect.stringContaining(`the folder ${join(root, 'cellar', 'node')} is writable`),
    ]);
    chmodSync(join(root, 'cellar', 'node'), 0o755);
    lchownSync(link, 65534, 65534);
    expect(trustProblems(link)).toEqual([
      `${link} is owned by uid 65534, neither you (uid ${uid}) nor root, so its owner can change what the browser runs as you (fix: move it somewhere of yours, or chown it)`,
    ]);
    expect(trustProblems(real)).toEqual([]);
  });

  it('ends a loop of links with a sentence instead of spinning', () => {
    mkdirSync(join(root, 'loop'), { mode: 0o755 });
    symlinkSync('b', join(root, 'loop', 'a'));
    symlinkSync('a', join(root, 'loop', 'b'));
    expect(trustProblems(join(root, 'loop', 'a'))).toEqual([
      expect.stringContaining('more than 40 symbolic links'),
    ]);
  });

  it('names a folder owned by another user even when its mode is tight', () => {
    const bundle = file('dist', 'native-host.mjs');
    chownSync(join(root, 'dist'), 65534, 65534);
    chmodSync(join(root, 'dist'), 0o755);
    expect(trustProblems(bundle)).toEqual([
      expect.stringContaining(`${join(root, 'dist')} is owned by uid 65534`),
    ]);
  });

  it('checks the bundles the host loads from beside it, once per problem', () => {
    const node = file('bin', 'node');
    const bundle = file('dist', 'native-host.mjs');
    const agent = file('dist', 'agent-runtime.mjs');
    expect(launchedTrustProblems(node, bundle)).toEqual([]);
    chmodSync(agent, 0o666);
    chmodSync(root, 0o777);
    expect(launchedTrustProblems(node, bundle)).toEqual([
      expect.stringContaining(`the folder ${root} is writable`),
      expect.stringContaining(`the file ${agent} is writable`),
    ]);
    chmodSync(root, 0o700);
  });

  it("checks the agent's chunks it imports from agent-chunks/, and that folder", () => {
    const node = file('bin', 'node');
    const bundle = file('dist', 'native-host.mjs');
    const chunk = file('dist', 'agent-chunks', 'openai-ABC.mjs');
    expect(launchedTrustProblems(node, bundle)).toEqual([]);
    chmodSync(chunk, 0o666);
    chmodSync(join(root, 'dist', 'agent-chunks'), 0o777);
    expect(launchedTrustProblems(node, bundle)).toEqual([
      expect.stringContaining(`the folder ${join(root, 'dist', 'agent-chunks')} is writable`),
      expect.stringContaining(`the file ${chunk} is writable`),
    ]);
    chmodSync(join(root, 'dist', 'agent-chunks'), 0o755);
    chmodSync(chunk, 0o755);
  });

  it("accepts group write when the group is the user's alone (a user private group), not when others can be in it", () => {
    const node = file('home', 'me', '.nvm', 'bin', 'node');
    chownSync(join(root, 'home', 'me', '.nvm'), uid, 4242);
    chmodSync(join(root, 'home', 'me', '.nvm'), 0o775);
    chownSync(node, uid, 4242);
    chmodSync(node, 0o775);
    expect(trustProblems(node, { privateGroup: (gid) => gid === 4242 })).toEqual([]);
    expect(trustProblems(node, { privateGroup: () => false })).toEqual([
      expect.stringContaining(
        `the folder ${join(root, 'home', 'me', '.nvm')} is writable by group or others (mode 0775)`,
      ),
      expect.stringContaining(`the file ${node} is writable by group or others (mode 0775)`),
    ]);
    // Others' write is never excused by a private group.
    chmodSync(node, 0o777);
    expect(trustProblems(node, { privateGroup: () => true })).toEqual([
      expect.stringContaining(`the file ${node} is writable by group or others (mode 0777)`),
    ]);
    // A group that is not even the user's primary one is never private.
    expect(isPrivateGroup(4242, uid)).toBe(false);
  });

  it('says nothing on Windows, where modes do not describe who may write', () => {
    const node = file('bin', 'node');
    chmodSync(node, 0o777);
    expect(trustProblems(node, { platform: 'win32' })).toEqual([]);
    expect(trustProblems(node)).not.toEqual([]);
  });
});
