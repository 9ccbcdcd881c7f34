/**
 * The host's own copy in BPROXY_HOME/host/<version>: what install writes there (the bundles, links to
 * the packages the bundles leave out), that the launcher runs the copy and not the installing folder,
 * that installing another version replaces the copy and removes the older one, that uninstall removes
 * it, and that the links are held to the trust walk.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  hostStatus,
  installHost,
  readLauncher,
  readRecord,
  registrationContext,
  uninstallHost,
} from '../../src/registration/index';
import { HOST_EXTERNALS } from '../../src/registration/copy';
import { EXTERNALS } from '../../../cli/build.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/**
 * An installed package: bin/node, pkg/dist/*.mjs and the agent's chunks in pkg/dist/agent-chunks/,
 * pkg/node_modules/@lydell/node-pty and openai (the other SDKs, optional, not installed).
 */
function sandbox() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'bproxy-copy-')));
  roots.push(root);
  const node = join(root, 'bin', 'node');
  const dist = join(root, 'pkg', 'dist');
  const files: Record<string, string> = {
    [node]: '',
    [join(dist, 'native-host.mjs')]: '// host v1\n',
    [join(dist, 'daemon.mjs')]: '// daemon v1\n',
    [join(dist, 'agent-runtime.mjs')]: '// agent v1\n',
    [join(dist, 'bproxy.mjs')]: '// cli v1\n',
    [join(dist, 'notes.txt')]: 'not a bundle\n',
    [join(dist, 'agent-chunks', 'openai-AAAA1111.mjs')]: '// openai chunk v1\n',
    [join(dist, 'agent-chunks', 'chunk-BBBB2222.mjs')]: '// shared chunk v1\n',
    [join(root, 'pkg', 'node_modules', '@lydell', 'node-pty', 'package.json')]: '{}',
    [join(root, 'pkg', 'node_modules', 'openai', 'package.json')]: '{}',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const home = join(root, 'home');
  mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
  writeFileSync(join(home, '.config', 'chromium', 'Local State'), '{}');
  const stateHome = join(root, 'state');
  const context = registrationContext({
    platform: 'linux',
    home,
    env: { BPROXY_HOME: stateHome },
    systemRoot: join(root, 'system'),
  });
  return { root, node, dist, bundle: join(dist, 'native-host.mjs'), stateHome, context };
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("the host's own copy in BPROXY_HOME", () => {
  it('install copies every bundle into BPROXY_HOME/host/<version>, links the externals, and the launcher runs the copy', async () => {
    const box = sandbox();
    const report = await installHost({
      context: box.context,
      node: box.node,
      bundle: box.bundle,
      version: '0.3.1',
    });
    const copy = join(box.stateHome, 'host', '0.3.1');
    expect(report).toMatchObject({
      bundle: join(copy, 'native-host.mjs'),
      installedFrom: box.bundle,
      version: '0.3.1',
    });
    expect(readdirSync(copy).sort()).toEqual([
      'agent-chunks',
      'agent-runtime.mjs',
      'bproxy.mjs',
      'daemon.mjs',
      'native-host.mjs',
      'node_modules',
    ]);
    expect(readFileSync(join(copy, 'native-host.mjs'), 'utf8')).toBe('// host v1\n');
    // agent-runtime.mjs imports its provider from ./agent-chunks/: the folder comes with it.
    expect(readdirSync(join(copy, 'agent-chunks')).sort()).toEqual([
      'chunk-BBBB2222.mjs',
      'openai-AAAA1111.mjs',
    ]);
    expect(readFileSync(join(copy, 'agent-chunks', 'openai-AAAA1111.mjs'), 'utf8')).toBe(
      '// openai chunk v1\n',
    );
    expect(mode(copy)).toBe(0o700);
    expect(mode(join(copy, 'agent-chunks'))).toBe(0o700);
    expect(mode(join(copy, 'daemon.mjs'))).toBe(0o644);
    expect(mode(join(copy, 'agent-chunks', 'openai-AAAA1111.mjs'))).toBe(0o644);
    const pty = join(copy, 'node_modules', '@lydell', 'node-pty');
    expect(lstatSync(pty).isSymbolicLink()).toBe(true);
    expect(readlinkSync(pty)).toBe(join(box.root, 'pkg', 'node_modules', '@lydell', 'node-pty'));
    expect(readlinkSync(join(copy, 'node_modules', 'openai'))).toBe(
      join(box.root, 'pkg', 'node_modules', 'openai'),
    );
    // Not installed in the package: not linked.
    expect(existsSync(join(copy, 'node_modules', '@anthropic-ai'))).toBe(false);

    const launcher = readLauncher(readFileSync(report.launcher, 'utf8'));
    expect(launcher).toEqual({ node: box.node, bundle: join(copy, 'native-host.mjs') });
    const record = readRecord(join(box.stateHome, 'host', 'install.json'));
    expect(record?.copy).toEqual({
      dir: copy,
      version: '0.3.1',
      files: [
        'native-host.mjs',
        'agent-runtime.mjs',
        'bproxy.mjs',
        'daemon.mjs',
        'agent-chunks/chunk-BBBB2222.mjs',
        'agent-chunks/openai-AAAA1111.mjs',
      ],
      modules: [
        { name: '@lydell/node-pty', target: join(box.root, 'pkg', 'node_modules', '@lydell', 'node-pty') },
        { name: 'openai', target: join(box.root, 'pkg', 'node_modules', 'openai') },
      ],
    });
    // The installing package moving away (an npx cache cleaned) leaves the host's own bundles whole.
    rmSync(box.dist, { recursive: true });
    const status = await hostStatus({ context: box.context, probe: false });
    expect(status.browsers.find((b) => b.browser === 'chromium')).toMatchObject({
      registered: true,
      stale: false,
    });
  });

  it('installing another version replaces the copy and removes the older one; the same version again updates it in place', async () => {
    const box = sandbox();
    await installHost({ context: box.context, node: box.node, bundle: box.bundle, version: '0.1.0' });
    const old = join(box.stateHome, 'host', '0.1.0');
    writeFileSync(box.bundle, '// host v2\n');
    const again = await installHost({
      context: box.context,
      node: box.node,
      bundle: box.bundle,
      version: '0.1.0',
    });
    expect(again.removedCopies).toEqual([]);
    expect(readFileSync(join(old, 'native-host.mjs'), 'utf8')).toBe('// host v2\n');

    // A new build of the same version (other chunk names, an SDK uninstalled): the copy follows it and
    // drops what the build no longer has; nothing it did not write goes.
    rmSync(join(box.dist, 'agent-chunks', 'openai-AAAA1111.mjs'));
    writeFileSync(join(box.dist, 'agent-chunks', 'openai-CCCC3333.mjs'), '// openai chunk v2\n');
    rmSync(join(box.root, 'pkg', 'node_modules', 'openai'), { recursive: true });
    writeFileSync(join(old, 'agent-chunks', 'mine.txt'), '');
    await installHost({ context: box.context, node: box.node, bundle: box.bundle, version: '0.1.0' });
    expect(readdirSync(join(old, 'agent-chunks')).sort()).toEqual([
      'chunk-BBBB2222.mjs',
      'mine.txt',
      'openai-CCCC3333.mjs',
    ]);
    expect(existsSync(join(old, 'node_modules', 'openai'))).toBe(false);
    expect(readRecord(join(box.stateHome, 'host', 'install.json'))?.copy?.modules.map((m) => m.name)).toEqual(
      ['@lydell/node-pty'],
    );
    rmSync(join(old, 'agent-chunks', 'mine.txt'));
    mkdirSync(join(box.root, 'pkg', 'node_modules', 'openai'));
    writeFileSync(join(box.root, 'pkg', 'node_modules', 'openai', 'package.json'), '{}');

    // Something not ours in the old folder stays, and so does its folder.
    const upgrade = await installHost({
      context: box.context,
      node: box.node,
      bundle: box.bundle,
      version: '0.2.0',
    });
    expect(upgrade.removedCopies).toEqual([old]);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(join(box.stateHome, 'host')).sort()).toEqual(['0.2.0', 'bproxy-host', 'install.json']);
    expect(readLauncher(readFileSync(upgrade.launcher, 'utf8'))?.bundle).toBe(
      join(box.stateHome, 'host', '0.2.0', 'native-host.mjs'),
    );

    // A copy installing itself again (`bproxy setup` typed in the Terminal) keeps its links.
    const fromCopy = await installHost({
      context: box.context,
      node: box.node,
      bundle: join(box.stateHome, 'host', '0.2.0', 'native-host.mjs'),
      version: '0.2.0',
    });
    expect(fromCopy.removedCopies).toEqual([]);
    expect(readlinkSync(join(box.stateHome, 'host', '0.2.0', 'node_modules', 'openai'))).toBe(
      join(box.root, 'pkg', 'node_modules', 'openai'),
    );
  });

  it('uninstall removes the copy with the launcher, and leaves what it did not write', async () => {
    const box = sandbox();
    await installHost({ context: box.context, node: box.node, bundle: box.bundle, version: '1.0.0' });
    const copy = join(box.stateHome, 'host', '1.0.0');
    const report = await uninstallHost({ context: box.context });
    expect(report.removedFiles).toEqual(
      expect.arrayContaining([
        join(copy, 'native-host.mjs'),
        join(copy, 'agent-chunks', 'openai-AAAA1111.mjs'),
        join(copy, 'node_modules', 'openai'),
      ]),
    );
    expect(existsSync(copy)).toBe(false);
    expect(readdirSync(join(box.stateHome, 'host'))).toEqual([]);
    // The packages the copy linked to are the installing package's: untouched.
    expect(existsSync(join(box.root, 'pkg', 'node_modules', 'openai', 'package.json'))).toBe(true);

    await installHost({ context: box.context, node: box.node, bundle: box.bundle, version: '1.0.0' });
    writeFileSync(join(copy, 'mine.txt'), '');
    await uninstallHost({ context: box.context });
    expect(readdirSync(copy)).toEqual(['mine.txt']);
  });

  it('removes nothing outside BPROXY_HOME/host on the word of a record edited by hand', async () => {
    const box = sandbox();
    await installHost({ context: box.context, node: box.node, bundle: box.bundle, version: '1.0.0' });
    const record = join(box.stateHome, 'host', 'install.json');
    const elsewhere = join(box.root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'native-host.mjs'), 'not the copy');
    const edited = JSON.parse(readFileSync(record, 'utf8')) as { copy: { dir: string } };
    writeFileSync(record, JSON.stringify({ ...edited, copy: { ...edited.copy, dir: elsewhere } }));
    await uninstallHost({ context: box.context });
    expect(readFileSync(join(elsewhere, 'native-host.mjs'), 'utf8')).toBe('not the copy');
  });

  it('refuses a version that is not a folder name, and a linked package others can change', async () => {
    const box = sandbox();
    await expect(
      installHost({ context: box.context, node: box.node, bundle: box.bundle, version: '../../etc' }),
    ).rejects.toThrow(/not a version/);
    const openai = join(box.root, 'pkg', 'node_modules', 'openai');
    chmodSync(openai, 0o777);
    await expect(installHost({ context: box.context, node: box.node, bundle: box.bundle })).rejects.toThrow(
      `the folder ${openai} is writable by group or others (mode 0777)`,
    );
    chmodSync(openai, 0o755);
    await installHost({ context: box.context, node: box.node, bundle: box.bundle });
    // Loosened after install: status calls the registration unsafe and does not run it.
    chmodSync(join(box.root, 'pkg', 'node_modules'), 0o777);
    const status = await hostStatus({ context: box.context });
    const chromium = status.browsers.find((b) => b.browser === 'chromium');
    expect(chromium).toMatchObject({ stale: true, answers: null });
    expect(chromium?.problems.join()).toContain(
      `the folder ${join(box.root, 'pkg', 'node_modules')} is writable`,
    );
  });

  it("status walks the copy's agent chunks, which the host imports, and does not run a launcher whose chunk others can change", async () => {
    const box = sandbox();
    await installHost({ context: box.context, node: box.node, bundle: box.bundle, version: '1.0.0' });
    const chunk = join(box.stateHome, 'host', '1.0.0', 'agent-chunks', 'openai-AAAA1111.mjs');
    expect(
      (await hostStatus({ context: box.context, probe: false })).browsers.find(
        (b) => b.browser === 'chromium',
      ),
    ).toMatchObject({ stale: false });
    chmodSync(chunk, 0o666);
    const status = await hostStatus({ context: box.context });
    const chromium = status.browsers.find((b) => b.browser === 'chromium');
    expect(chromium).toMatchObject({ stale: true, answers: null });
    expect(chromium?.problems.join()).toContain(`the file ${chunk} is writable by group or others`);
  });

  it("links exactly the packages the CLI's build leaves out of the bundles", () => {
    expect([...HOST_EXTERNALS].sort()).toEqual([...EXTERNALS].sort());
  });
});
