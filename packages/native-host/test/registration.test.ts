/**
 * Registration into a temporary HOME, for every browser's Linux and macOS layout, and into a scripted
 * Windows registry: where each manifest goes (paths written out here, independently of the code's
 * table), what it says, file modes, the launcher, what counts as installed, that `uninstall` removes
 * exactly what `install` wrote, and what `status` calls stale. Running the launcher: registration-probe.test.ts.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BPROXY_VERSION, DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BROWSER_IDS,
  RegistrationError,
  hostStatus,
  installHost,
  readLauncher,
  registrationContext,
  uninstallHost,
  type RegistrationContext,
} from '../src/registration/index';
import { ScriptedRegistry } from './helpers/registry';

const ORIGIN = `chrome-extension://${DEFAULT_EXTENSION_ID}/`;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

interface Sandbox {
  readonly root: string;
  readonly home: string;
  readonly stateHome: string;
  /** Stand-ins for the Node binary and the host bundle the launcher names (they only need to exist). */
  readonly node: string;
  readonly bundle: string;
}

function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-reg-'));
  roots.push(root);
  const node = join(root, 'bin', 'node');
  const bundle = join(root, 'dist', 'native-host.mjs');
  for (const file of [node, bundle]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
  }
  return { root, home: join(root, 'home'), stateHome: join(root, 'state'), node, bundle };
}

function contextFor(
  box: Sandbox,
  platform: NodeJS.Platform,
  extra: Record<string, string> = {},
  registry?: ScriptedRegistry,
) {
  return registrationContext({
    platform,
    home: box.home,
    env: { BPROXY_HOME: box.stateHome, ...extra },
    systemRoot: join(box.root, 'system'),
    ...(registry === undefined ? {} : { registry: registry.run }),
  });
}

const MANIFEST = 'com.bproxy.host.json';

/** The host bundle the launcher runs: install's copy in BPROXY_HOME/host/<version>. */
const copied = (box: Sandbox) => join(box.stateHome, 'host', BPROXY_VERSION, 'native-host.mjs');

/** Each browser's profile folder and NativeMessagingHosts folder, relative to HOME. */
const LINUX: Record<string, string> = {
  chrome: '.config/google-chrome',
  'chrome-beta': '.config/google-chrome-beta',
  'chrome-dev': '.config/google-chrome-unstable',
  'chrome-canary': '.config/google-chrome-canary',
  chromium: '.config/chromium',
  edge: '.config/microsoft-edge',
  'edge-beta': '.config/microsoft-edge-beta',
  'edge-dev': '.config/microsoft-edge-dev',
  brave: '.config/BraveSoftware/Brave-Browser',
  vivaldi: '.config/vivaldi',
};
const MAC: Record<string, string> = {
  chrome: 'Library/Application Support/Google/Chrome',
  'chrome-beta': 'Library/Application Support/Google/Chrome Beta',
  'chrome-dev': 'Library/Application Support/Google/Chrome Dev',
  'chrome-canary': 'Library/Application Support/Google/Chrome Canary',
  chromium: 'Library/Application Support/Chromium',
  edge: 'Library/Application Support/Microsoft Edge',
  'edge-beta': 'Library/Application Support/Microsoft Edge Beta',
  'edge-dev': 'Library/Application Support/Microsoft Edge Dev',
  'edge-canary': 'Library/Application Support/Microsoft Edge Canary',
  brave: 'Library/Application Support/BraveSoftware/Brave-Browser',
  vivaldi: 'Library/Application Support/Vivaldi',
};

const mode = (path: string) => statSync(path).mode & 0o777;
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe.each([
  ['Linux', 'linux' as const, LINUX],
  ['macOS', 'darwin' as const, MAC],
])('registration on %s', (_os, platform, layout) => {
  function profiles(box: Sandbox, ids: readonly string[]): void {
    for (const id of ids) {
      mkdirSync(join(box.home, layout[id] ?? ''), { recursive: true });
      writeFileSync(join(box.home, layout[id] ?? '', 'Local State'), '{}');
    }
  }

  it("puts our manifest in every installed browser's NativeMessagingHosts folder, pointing at one launcher", async () => {
    const box = sandbox();
    const ids = Object.keys(layout);
    profiles(box, ids);
    const context = contextFor(box, platform);
    const report = await installHost({ context, node: box.node, bundle: box.bundle });
    expect(report.registered.map((r) => r.browser).sort()).toEqual([...ids].sort());
    const launcher = join(box.stateHome, 'host', 'bproxy-host');
    expect(report.launcher).toBe(launcher);
    for (const id of ids) {
      const path = join(box.home, layout[id] ?? '', 'NativeMessagingHosts', MANIFEST);
      expect(report.registered.find((r) => r.browser === id)?.location).toBe(path);
      expect(json(path)).toEqual({
        name: 'com.bproxy.host',
        description: expect.any(String),
        path: launcher,
        type: 'stdio',
        allowed_origins: [ORIGIN],
      });
      expect(mode(path)).toBe(0o644);
      expect(mode(dirname(path)) & 0o022).toBe(0);
    }
    expect(mode(launcher)).toBe(0o755);
    expect(mode(dirname(launcher))).toBe(0o700);
    // The launcher runs the host's own copy (copy.test.ts), not the folder it was installed from.
    expect(readLauncher(readFileSync(launcher, 'utf8'))).toEqual({ node: box.node, bundle: copied(box) });
    expect(readFileSync(launcher, 'utf8')).toContain(`BPROXY_HOME='${box.stateHome}'`);
    expect(mode(join(box.stateHome, 'host', 'install.json'))).toBe(0o600);
  });

  it('tightens a NativeMessagingHosts folder others can write to, and replaces a symlink planted at the manifest without writing through it', async () => {
    const box = sandbox();
    profiles(box, ['chromium']);
    const folder = join(box.home, layout.chromium ?? '', 'NativeMessagingHosts');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const elsewhere = join(box.root, 'elsewhere.json');
    writeFileSync(elsewhere, 'not yours');
    const path = join(folder, MANIFEST);
    symlinkSync(elsewhere, path);
    await installHost({
      context: contextFor(box, platform),
      node: box.node,
      bundle: box.bundle,
      browsers: ['chromium'],
    });
    expect(mode(folder)).toBe(0o755);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not yours');
    expect(lstatSync(path).isFile()).toBe(true);
    expect(mode(path)).toBe(0o644);
    expect(json(path)).toMatchObject({ allowed_origins: [ORIGIN] });
  });

  it('skips browsers that are not installed, counts a program in its standard place as installed, and takes --browser', async () => {
    const box = sandbox();
    profiles(box, ['brave']);
    const program =
      platform === 'linux'
        ? join(box.root, 'system', 'opt', 'vivaldi', 'vivaldi')
        : join(box.root, 'system', 'Applications', 'Vivaldi.app');
    mkdirSync(dirname(program), { recursive: true });
    writeFileSync(program, '');
    const context = contextFor(box, platform);
    const found = await installHost({ context, node: box.node, bundle: box.bundle });
    expect(found.registered.map((r) => r.browser)).toEqual(['brave', 'vivaldi']);
    expect(found.skipped.find((s) => s.browser === 'chrome')).toMatchObject({ reason: 'not installed' });

    const picked = await installHost({
      context,
      node: box.node,
      bundle: box.bundle,
      browsers: ['chrome-beta'],
    });
    expect(picked.registered.map((r) => r.browser)).toEqual(['chrome-beta']);
    expect(existsSync(join(box.home, layout['chrome-beta'] ?? '', 'NativeMessagingHosts', MANIFEST))).toBe(
      true,
    );
    const status = await hostStatus({ context, probe: false });
    expect(status.browsers.filter((b) => b.registered).map((b) => b.browser)).toEqual([
      'chrome-beta',
      'brave',
      'vivaldi',
    ]);
    expect(status.browsers.find((b) => b.browser === 'chrome-beta')).toMatchObject({
      installed: false,
      recorded: true,
      stale: false,
    });

    await expect(
      installHost({ context, node: box.node, bundle: box.bundle, browsers: ['netscape'] }),
    ).rejects.toThrow(
      new RegistrationError(`unknown browser "netscape"; known browsers: ${BROWSER_IDS.join(', ')}`, true),
    );
  });

  it('uninstall removes exactly what install wrote, and nothing that is not ours', async () => {
    const box = sandbox();
    profiles(box, ['chrome', 'chromium', 'edge']);
    const context = contextFor(box, platform);
    await installHost({ context, node: box.node, bundle: box.bundle });
    const folder = (id: string) => join(box.home, layout[id] ?? '', 'NativeMessagingHosts');
    // Another program's host beside ours, and a manifest of ours someone pointed elsewhere since.
    writeFileSync(join(folder('chrome'), 'org.other.host.json'), '{}');
    const edited = join(folder('edge'), MANIFEST);
    writeFileSync(edited, JSON.stringify({ ...json(edited), path: '/opt/elsewhere/host' }));
    writeFileSync(join(box.stateHome, 'host', 'host.log'), '');

    const report = await uninstallHost({ context });
    expect(report.browsers).toEqual([
      { browser: 'chrome', location: join(folder('chrome'), MANIFEST), outcome: 'removed' },
      { browser: 'chromium', location: join(folder('chromium'), MANIFEST), outcome: 'removed' },
      { browser: 'edge', location: edited, outcome: 'kept', reason: expect.stringContaining('not ours') },
    ]);
    expect(readdirSync(folder('chrome'))).toEqual(['org.other.host.json']);
    expect(readdirSync(folder('chromium'))).toEqual([]);
    expect(json(edited).path).toBe('/opt/elsewhere/host');
    expect(readdirSync(join(box.stateHome, 'host'))).toEqual(['host.log']);
    expect(await uninstallHost({ context })).toMatchObject({
      browsers: [],
      note: expect.stringContaining('nothing was installed'),
    });
  });

  it('uninstall of one browser keeps the others, the launcher and the record', async () => {
    const box = sandbox();
    profiles(box, ['chrome', 'brave']);
    const context = contextFor(box, platform);
    await installHost({ context, node: box.node, bundle: box.bundle });
    const report = await uninstallHost({ context, browsers: ['brave'] });
    expect(report.browsers.map((b) => [b.browser, b.outcome])).toEqual([['brave', 'removed']]);
    expect(report.removedFiles).toEqual([]);
    const status = await hostStatus({ context, probe: false });
    expect(status.browsers.filter((b) => b.registered).map((b) => b.browser)).toEqual(['chrome']);
    expect(existsSync(join(box.stateHome, 'host', 'bproxy-host'))).toBe(true);
  });

  it('status names what is stale: wrong origin, missing launcher, launcher of another install, wrong node, loose modes', async () => {
    const box = sandbox();
    profiles(box, ['chrome', 'chromium', 'edge', 'brave', 'vivaldi']);
    const context = contextFor(box, platform);
    await installHost({ context, node: box.node, bundle: box.bundle });
    const manifest = (id: string) => join(box.home, layout[id] ?? '', 'NativeMessagingHosts', MANIFEST);
    const fresh = await hostStatus({ context, probe: false });
    expect(fresh.browsers.filter((b) => b.registered).every((b) => !b.stale && b.answers === null)).toBe(
      true,
    );

    writeFileSync(
      manifest('chrome'),
      JSON.stringify({
        ...json(manifest('chrome')),
        allowed_origins: [ORIGIN, 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/'],
      }),
    );
    const otherLauncher = join(box.root, 'old', 'bproxy-host');
    mkdirSync(dirname(otherLauncher), { recursive: true, mode: 0o700 });
    writeFileSync(
      otherLauncher,
      readFileSync(join(box.stateHome, 'host', 'bproxy-host'), 'utf8').replace(
        box.node,
        join(box.root, 'gone', 'node'),
      ),
      { mode: 0o755 },
    );
    writeFileSync(manifest('edge'), JSON.stringify({ ...json(manifest('edge')), path: otherLauncher }));
    writeFileSync(
      manifest('brave'),
      JSON.stringify({ ...json(manifest('brave')), path: join(box.root, 'moved', 'bproxy-host') }),
    );
    chmodSync(manifest('vivaldi'), 0o666);

    const status = await hostStatus({ context, probe: false });
    const problems = (id: string) =>
      status.browsers.find((b) => b.browser === id)?.problems.join(' | ') ?? '';
    expect(problems('chrome')).toContain('wrong origin');
    expect(problems('edge')).toContain(`not this install's launcher`);
    expect(problems('edge')).toContain(`wrong node: ${join(box.root, 'gone', 'node')} does not exist`);
    expect(problems('brave')).toContain('is missing (moved or deleted)');
    expect(problems('vivaldi')).toContain('writable by group or others');
    expect(problems('chromium')).toBe('');
    expect(status.browsers.filter((b) => b.stale).map((b) => b.browser)).toEqual([
      'chrome',
      'edge',
      'brave',
      'vivaldi',
    ]);
    expect(status.ok).toBe(false);
  });

  it('install refuses a Node, bundle or folder above them that others can change, naming the path and the fix', async () => {
    const box = sandbox();
    profiles(box, ['chrome']);
    const context = contextFor(box, platform);
    const launcher = join(box.stateHome, 'host', 'bproxy-host');
    const manifest = join(box.home, layout.chrome ?? '', 'NativeMessagingHosts', MANIFEST);
    const refused = (why: string) =>
      expect(installHost({ context, node: box.node, bundle: box.bundle })).rejects.toThrow(
        expect.objectContaining({ name: 'RegistrationError', message: expect.stringContaining(why) }),
      );

    const dist = dirname(box.bundle);
    chmodSync(dist, 0o777);
    await refused(
      `the folder ${dist} is writable by group or others (mode 0777), so they can change what the browser runs as you (fix: chmod go-w ${dist})`,
    );
    expect(existsSync(launcher)).toBe(false);
    expect(existsSync(manifest)).toBe(false);
    chmodSync(dist, 0o755);

    chmodSync(box.bundle, 0o666);
    await refused(`the file ${box.bundle} is writable by group or others (mode 0666)`);
    chmodSync(box.bundle, 0o644);

    chownSync(dirname(box.node), 65534, 65534);
    await refused(`${dirname(box.node)} is owned by uid 65534, neither you`);
    chownSync(dirname(box.node), process.getuid?.() ?? 0, process.getgid?.() ?? 0);

    // A folder everyone may add to but only owners may rename in (the sticky bit, as /tmp) is fine.
    chmodSync(dist, 0o1777);
    await installHost({ context, node: box.node, bundle: box.bundle });
    expect(existsSync(launcher)).toBe(true);
  });

  it('status calls a launcher unsafe when what it runs, or a folder above, became writable by others, and does not run it', async () => {
    const box = sandbox();
    profiles(box, ['chrome', 'chromium']);
    const context = contextFor(box, platform);
    // Node through a symbolic link, as package managers install it: the folders of its target count too.
    const cellar = join(box.root, 'cellar', 'node-22', 'bin');
    mkdirSync(cellar, { recursive: true });
    writeFileSync(join(cellar, 'node'), '');
    rmSync(box.node);
    symlinkSync(join('..', 'cellar', 'node-22', 'bin', 'node'), box.node);
    await installHost({ context, node: box.node, bundle: box.bundle });
    const fresh = await hostStatus({ context, probe: false });
    expect(fresh.browsers.filter((b) => b.registered).every((b) => !b.stale)).toBe(true);

    const dist = dirname(copied(box));
    chmodSync(dist, 0o777);
    // Group-writable, for a group others are in (nogroup stands in for a shared one).
    chownSync(join(box.root, 'cellar', 'node-22'), process.getuid?.() ?? 0, 65534);
    chmodSync(join(box.root, 'cellar', 'node-22'), 0o775);
    const status = await hostStatus({ context, probeTimeoutMs: 5_000 });
    for (const id of ['chrome', 'chromium']) {
      const browser = status.browsers.find((b) => b.browser === id);
      expect(browser).toMatchObject({ registered: true, stale: true, answers: null });
      expect(browser?.problems).toEqual([
        `the folder ${join(box.root, 'cellar', 'node-22')} is writable by group or others (mode 0775), so they can change what the browser runs as you (fix: chmod go-w ${join(box.root, 'cellar', 'node-22')})`,
        `the folder ${dist} is writable by group or others (mode 0777), so they can change what the browser runs as you (fix: chmod go-w ${dist})`,
      ]);
    }
    expect(status.ok).toBe(false);

    // The launcher's own folders are held to the same rule.
    chmodSync(dist, 0o755);
    chmodSync(join(box.root, 'cellar', 'node-22'), 0o755);
    chmodSync(box.stateHome, 0o757);
    const loose = await hostStatus({ context, probe: false });
    expect(loose.browsers.find((b) => b.browser === 'chrome')?.problems).toEqual([
      `the folder ${box.stateHome} is writable by group or others (mode 0757), so they can change what the browser runs as you (fix: chmod go-w ${box.stateHome})`,
    ]);
    // The launcher itself: the one file above which the host's copy does not lie.
    chmodSync(box.stateHome, 0o755);
    const launcher = join(box.stateHome, 'host', 'bproxy-host');
    chmodSync(launcher, 0o777);
    const looseLauncher = await hostStatus({ context, probeTimeoutMs: 5_000 });
    expect(looseLauncher.browsers.find((b) => b.browser === 'chrome')).toMatchObject({
      answers: null,
      problems: [
        `the file ${launcher} is writable by group or others (mode 0777), so they can change what the browser runs as you (fix: chmod go-w ${launcher})`,
      ],
    });
  });

  it('bakes no BPROXY_HOME when none was set, and trusts another extension id when one was given', async () => {
    const box = sandbox();
    profiles(box, ['chrome']);
    const context = registrationContext({
      platform,
      home: box.home,
      env: {},
      systemRoot: join(box.root, 'system'),
    });
    const id = 'abcdefghijklmnopabcdefghijklmnop';
    const report = await installHost({ context, node: box.node, bundle: box.bundle, extensionId: id });
    expect(report.launcher).toBe(join(box.home, '.bproxy', 'host', 'bproxy-host'));
    const text = readFileSync(report.launcher, 'utf8');
    expect(text).not.toContain('BPROXY_HOME');
    expect(text).not.toContain('BPROXY_EXTENSION_ID');
    // The id joins the one setting every part reads, beside the built-in one; the manifest allows both.
    const setting = join(box.home, '.bproxy', 'extensions.json');
    expect(json(setting)).toEqual({ ids: [id] });
    expect(statSync(setting).mode & 0o777).toBe(0o600);
    expect(report.extensionIds).toEqual([DEFAULT_EXTENSION_ID, id]);
    expect(report.addedExtensionId).toBe(id);
    const path = join(box.home, layout.chrome ?? '', 'NativeMessagingHosts', MANIFEST);
    expect(json(path).allowed_origins).toEqual([
      `chrome-extension://${DEFAULT_EXTENSION_ID}/`,
      `chrome-extension://${id}/`,
    ]);
    expect((await hostStatus({ context, probe: false })).browsers[0]).toMatchObject({
      browser: 'chrome',
      stale: false,
    });
    // Installing again without the flag keeps it: the setting, not the command line, holds it.
    const again = await installHost({ context, node: box.node, bundle: box.bundle });
    expect(again.extensionIds).toEqual([DEFAULT_EXTENSION_ID, id]);
    expect(again.addedExtensionId).toBeNull();
    // A manifest that allows fewer than the trusted set is stale, and says which ones it should allow.
    writeFileSync(setting, JSON.stringify({ ids: [id, 'b'.repeat(32)] }), { mode: 0o600 });
    const behind = await hostStatus({ context, probe: false });
    expect(behind.browsers[0]?.problems.join()).toContain('wrong origin');
  });

  it('refuses to install when extensions.json is open to others, writing nothing', async () => {
    const box = sandbox();
    profiles(box, ['chrome']);
    const context = registrationContext({
      platform,
      home: box.home,
      env: {},
      systemRoot: join(box.root, 'system'),
    });
    mkdirSync(join(box.home, '.bproxy'), { recursive: true, mode: 0o700 });
    const setting = join(box.home, '.bproxy', 'extensions.json');
    writeFileSync(setting, JSON.stringify({ ids: [] }), { mode: 0o600 });
    chmodSync(setting, 0o666);
    await expect(
      installHost({ context, node: box.node, bundle: box.bundle, extensionId: 'b'.repeat(32) }),
    ).rejects.toMatchObject({ unsafeState: true, message: expect.stringContaining('its mode is 0666') });
    expect(existsSync(join(box.home, layout.chrome ?? '', 'NativeMessagingHosts', MANIFEST))).toBe(false);
  });
  it("bakes the Terminal's program into the launcher, from the option or BPROXY_TERMINAL_COMMAND, quoted for sh", async () => {
    const box = sandbox();
    profiles(box, ['chrome']);
    const context = registrationContext({
      platform,
      home: box.home,
      env: { BPROXY_TERMINAL_COMMAND: 'fish' },
      systemRoot: join(box.root, 'system'),
    });
    const chosen = `bash -c 'echo "$HOME"; exec bash -l'`;
    const report = await installHost({
      context,
      node: box.node,
      bundle: box.bundle,
      terminalCommand: chosen,
    });
    expect(report.terminalCommand).toBe(chosen);
    // What sh makes of the launcher's assignments (everything but its last line, the exec).
    const assignments = readFileSync(report.launcher, 'utf8').replace(/^exec .*$/m, '');
    const seen = execFileSync('sh', ['-c', `${assignments}\nprintf %s "$BPROXY_TERMINAL_COMMAND"`], {
      env: {},
      encoding: 'utf8',
    });
    expect(seen).toBe(chosen);
    const fromEnv = await installHost({ context, node: box.node, bundle: box.bundle });
    expect(fromEnv.terminalCommand).toBe('fish');
    await expect(
      installHost({ context, node: box.node, bundle: box.bundle, terminalCommand: 'sh\nrm -rf ~' }),
    ).rejects.toThrow(/one line/);
  });
});

describe('registration on Windows (a scripted registry)', () => {
  function windows(box: Sandbox, registry: ScriptedRegistry): RegistrationContext {
    const local = join(box.root, 'AppData', 'Local');
    for (const folder of [
      ['Google', 'Chrome', 'User Data'],
      ['Google', 'Chrome SxS', 'User Data'],
      ['Microsoft', 'Edge', 'User Data'],
    ]) {
      mkdirSync(join(local, ...folder), { recursive: true });
      writeFileSync(join(local, ...folder, 'Local State'), '{}');
    }
    const programs = join(box.root, 'Program Files');
    mkdirSync(join(programs, 'BraveSoftware', 'Brave-Browser', 'Application'), { recursive: true });
    writeFileSync(join(programs, 'BraveSoftware', 'Brave-Browser', 'Application', 'brave.exe'), '');
    return contextFor(box, 'win32', { LOCALAPPDATA: local, ProgramFiles: programs }, registry);
  }

  const CHROME = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.bproxy.host';
  const EDGE = 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.bproxy.host';
  const BRAVE = 'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\com.bproxy.host';

  it('points one key per browser brand at one manifest, which names a .bat launcher', async () => {
    const box = sandbox();
    const registry = new ScriptedRegistry();
    const context = windows(box, registry);
    const report = await installHost({ context, node: box.node, bundle: box.bundle });
    expect(report.registered.map((r) => [r.browser, r.location])).toEqual([
      ['chrome', CHROME],
      ['chrome-canary', CHROME],
      ['edge', EDGE],
      ['brave', BRAVE],
    ]);
    const manifest = join(box.stateHome, 'host', MANIFEST);
    expect([...registry.values]).toEqual([
      [CHROME, manifest],
      [EDGE, manifest],
      [BRAVE, manifest],
    ]);
    const launcher = join(box.stateHome, 'host', 'bproxy-host.bat');
    expect(json(manifest)).toMatchObject({
      name: 'com.bproxy.host',
      path: launcher,
      allowed_origins: [ORIGIN],
    });
    const bat = readFileSync(launcher, 'utf8');
    expect(bat).toMatch(/^@echo off\r\n/);
    expect(bat).toContain(`set "BPROXY_HOME=${box.stateHome}"\r\n`);
    expect(bat).toContain(`"${box.node}" "${copied(box)}" %*\r\n`);
    expect(readLauncher(bat)).toEqual({ node: box.node, bundle: copied(box) });
    expect(registry.calls[0]).toEqual(['query', CHROME, '/ve']);
    expect(registry.calls).toContainEqual(['add', CHROME, '/ve', '/t', 'REG_SZ', '/d', manifest, '/f']);

    const status = await hostStatus({ context, probe: false });
    expect(status.browsers.filter((b) => b.registered).map((b) => b.browser)).toEqual([
      'chrome',
      'chrome-beta',
      'chrome-dev',
      'chrome-canary',
      'edge',
      'edge-beta',
      'edge-dev',
      'edge-canary',
      'brave',
    ]);
    expect(status.browsers.every((b) => !b.stale)).toBe(true);
  });

  it('uninstall deletes the keys still pointing at our manifest and leaves one that another program took', async () => {
    const box = sandbox();
    const registry = new ScriptedRegistry();
    const context = windows(box, registry);
    await installHost({ context, node: box.node, bundle: box.bundle });
    registry.set(EDGE, 'C:\\Other\\host.json');
    const report = await uninstallHost({ context });
    expect(report.browsers.map((b) => [b.browser, b.outcome])).toEqual([
      ['chrome', 'removed'],
      ['chrome-canary', 'removed'],
      ['edge', 'kept'],
      ['brave', 'removed'],
    ]);
    expect([...registry.values]).toEqual([[EDGE, 'C:\\Other\\host.json']]);
    expect(registry.calls.filter((c) => c[0] === 'delete').map((c) => c[1])).toEqual([CHROME, BRAVE]);
    expect(existsSync(join(box.stateHome, 'host', MANIFEST))).toBe(false);
    expect(existsSync(join(box.stateHome, 'host', 'bproxy-host.bat'))).toBe(false);
  });

  it('status calls a key whose manifest is gone stale', async () => {
    const box = sandbox();
    const registry = new ScriptedRegistry();
    const context = windows(box, registry);
    await installHost({ context, node: box.node, bundle: box.bundle, browsers: ['brave'] });
    rmSync(join(box.stateHome, 'host', MANIFEST));
    const status = await hostStatus({ context, probe: false, browsers: ['brave'] });
    expect(status.browsers[0]).toMatchObject({ registered: true, stale: true });
    expect(status.browsers[0]?.problems[0]).toContain('which does not exist');
  });
});
