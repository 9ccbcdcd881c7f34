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

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** An installed package: bin/node, pkg/dist/*.mjs, pkg/node_modules/@lydell/node-pty and openai. */
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
      'agent-runtime.mjs',
      'bproxy.mjs',
      'daemon.mjs',
      'native-host.mjs',
      'node_modules',
    ]);
    expect(readFileSync(join(copy, 'native-host.mjs'), 'utf8')).toBe('// host v1\n');
    expect(mode(copy)).toBe(0o700);
    expect(mode(join(copy, 'daemon.mjs'))).toBe(0o644);
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
      files: ['native-host.mjs', 'agent-runtime.mjs', 'bproxy.mjs', 'daemon.mjs'],
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
      expect.arrayContaining([join(copy, 'native-host.mjs'), join(copy, 'node_modules', 'openai')]),
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
});
