/**
 * The package as a user gets it: `npm pack` of packages/cli, `npm i -g --prefix DIR` of the tarball
 * (its declared dependencies from the registry or npm's cache), and then, from an unrelated folder
 * with a temporary HOME and BPROXY_HOME and no clone on PATH or NODE_PATH, the INSTALLED `bproxy`:
 * `--version`, `service start`, a tab with a snapshot and a click, MCP `tools/list` + `navigate`
 * through the SDK's client, `service stop`, and `bproxy setup` after which a headless Chromium loading
 * the extension from the installed package pairs through the installed native host — no code typed.
 * The tarball holds only what ships (no sources, tests or fixtures) and stays within its size budgets.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChromiumLeft, removeProfile } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { launchWithExtension, type ExtensionBrowser } from '../kit/extension';
import { handleOf, McpClient } from '../kit/mcp';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { ROOT } from '../kit/paths';
import { until } from '../kit/wait';

/** What `npm pack` may weigh (compressed), and the global install with its dependencies (≤ 30 MB). */
const PACKED_BUDGET = 4 * 1024 * 1024;
const INSTALLED_BUDGET = 30 * 1024 * 1024;

const PACKAGE = join(ROOT, 'packages', 'cli');
const VERSION = (JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string })
  .version;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

function run(
  program: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      program,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${program} ${args.join(' ')} failed: ${String(error)}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** Bytes under `dir`, as `du` counts files (links not followed). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

const scratch = mkdtempSync(join(tmpdir(), 'bproxy-e2e-package-'));
const prefix = join(scratch, 'prefix');
const unrelated = join(scratch, 'elsewhere');
const home = join(scratch, 'home');
const config = join(home, '.config');
/** No clone anywhere: node's own folder and the system's, then the installed prefix's bin. */
const PATH = [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':');
const userEnv: NodeJS.ProcessEnv = {
  PATH,
  HOME: home,
  XDG_CONFIG_HOME: config,
  TMPDIR: tmpdir(),
  ...(process.env.CHROME_PATH === undefined ? {} : { CHROME_PATH: process.env.CHROME_PATH }),
};
const installedBin = join(prefix, 'bin', 'bproxy');
const installedPackage = join(prefix, 'lib', 'node_modules', 'bproxy');

let packed: PackResult;
let installSeconds = 0;
let pages: FixtureServer;
let cli: Cli;
let browser: ExtensionBrowser | undefined;

beforeAll(async () => {
  mkdirSync(unrelated, { recursive: true });
  mkdirSync(config, { recursive: true });
  // The bundles were built before the suite (scripts/test.mjs); the prepack copies README, LICENSE
  // and CHANGELOG in without rebuilding under the other tests' feet.
  const npmEnv = { ...process.env, BPROXY_PACK_PREBUILT: '1' };
  const out = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: PACKAGE,
    env: npmEnv,
    timeoutMs: 60_000,
  });
  const [result] = JSON.parse(out) as PackResult[];
  if (result === undefined) throw new Error(`npm pack answered nothing: ${out}`);
  packed = result;
  const started = performance.now();
  // npm runs as the user's own (their registry, certificates and cache), with no clone on PATH or
  // NODE_PATH; its global config is named, since --prefix would look for it under the new prefix.
  const globalconfig = (
    await run('npm', ['config', 'get', 'globalconfig'], {
      cwd: unrelated,
      env: process.env,
      timeoutMs: 30_000,
    })
  ).trim();
  const { NODE_PATH: _nodePath, ...parentEnv } = process.env;
  await run(
    'npm',
    [
      'i',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(scratch, packed.filename),
    ],
    {
      cwd: unrelated,
      env: { ...parentEnv, PATH, npm_config_globalconfig: globalconfig },
      timeoutMs: 180_000,
    },
  );
  installSeconds = (performance.now() - started) / 1000;
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-package-home-', { command: [installedBin], cwd: unrelated, env: userEnv });
}, 240_000);

afterAll(async () => {
  const dirs = browser === undefined ? [] : [browser.userDataDir];
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
  await removeProfile(scratch);
}, 60_000);

describe('the bproxy package, packed and installed', () => {
  it('ships the bundles, the extension and the docs — no sources, tests or fixtures — within budget', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'bin/bproxy.mjs',
        'bin/bproxy-bridge.mjs',
        'dist/bproxy.mjs',
        'dist/daemon.mjs',
        'dist/mcp.mjs',
        'dist/native-host.mjs',
        'dist/agent-runtime.mjs',
        'dist/bridge.mjs',
        'dist/extension/manifest.json',
        'dist/extension/background.js',
      ]),
    );
    expect(paths.filter((p) => /(^|\/)(src|test|tests|fixtures)\//.test(p) || /\.ts$/.test(p))).toEqual([]);
    expect(packed.size).toBeLessThanOrEqual(PACKED_BUDGET);
    const manifest = JSON.parse(readFileSync(join(installedPackage, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@bproxy/'))).toEqual(
      [],
    );
    const installed = sizeOf(prefix);
    console.error(
      `[package] packed ${packed.size} B, unpacked ${packed.unpackedSize} B, installed ${installed} B in ${installSeconds.toFixed(1)} s`,
    );
    expect(installed).toBeLessThanOrEqual(INSTALLED_BUDGET);
  });

  it('installs no model SDK, and `agent config` says which to install for the provider chosen', async () => {
    for (const sdk of ['@anthropic-ai/sdk', 'openai', '@github/copilot-sdk'])
      expect(existsSync(join(prefix, 'lib', 'node_modules', sdk))).toBe(false);
    const result = await cli.run([
      'agent',
      'config',
      '--provider',
      'openai',
      '--base-url',
      'http://127.0.0.1:9/v1',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({
      provider: 'openai',
      sdk: { package: 'openai', installed: false, install: 'npm i -g openai@^7.57.0' },
    });
    expect(result.stderr).toContain('run: npm i -g openai@^7.57.0, then bproxy setup');
  });

  it('finds what it runs beside it: the bridge executable, the PTY addon of the Terminal', async () => {
    const bridge = await run(installedBin, ['bridge', '--print-path'], {
      cwd: unrelated,
      env: userEnv,
      timeoutMs: 20_000,
    });
    expect(bridge.trim()).toBe(join(installedPackage, 'dist', 'bproxy-bridge'));
    expect(statSync(bridge.trim()).mode & 0o111).not.toBe(0);
    // The native host imports the PTY from its own folder: the installed package's node_modules.
    const pty = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const pty = await import('@lydell/node-pty'); console.log(typeof pty.spawn);",
      ],
      { cwd: join(installedPackage, 'dist'), env: userEnv, timeoutMs: 20_000 },
    );
    expect(pty.trim()).toBe('function');
  });

  it('answers its version and drives a tab from an unrelated folder', async () => {
    const version = await run(installedBin, ['--version'], {
      cwd: unrelated,
      env: userEnv,
      timeoutMs: 20_000,
    });
    expect(version.trim()).toBe(VERSION);
    await cli.start(['--browser', 'headless']);
    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, pages.url('counter.html'), '--browser', 'headless']);
    const { snapshot } = await cli.ok<{ snapshot: string }>(['snapshot', '-s', session]);
    expect(snapshot).toMatch(/button "Increment"/);
    await cli.ok(['click', '-s', session, handleOf(snapshot, /button "Increment"/)]);
    const count = await cli.ok<{ text?: string }>(['inspect', '-s', session, '--selector', '#count']);
    expect(count.text).toBe('1');
  }, 120_000);

  it('serves MCP to a real client: tools/list and navigate', async () => {
    const mcp = await McpClient.start(
      cli.environment(),
      ['--browser', 'headless', '--pacing', 'fast'],
      'package-install',
      {
        command: [installedBin],
        cwd: unrelated,
      },
    );
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['navigate', 'snapshot', 'click']));
      expect(await mcp.ok('navigate', { url: pages.url('counter.html') })).toContain('"Counter"');
    } finally {
      await mcp.close();
    }
    await cli.stop();
    const status = await cli.run(['service', 'status']);
    expect(JSON.stringify(status.json)).toMatch(/"running":false/);
  }, 120_000);

  it('sets up the installed native host, and the packaged extension pairs through it with no code typed', async () => {
    const setup = await cli.ok<{ install?: { registered?: { browser: string }[] } }>([
      'setup',
      '--browser',
      'chromium',
    ]);
    expect(JSON.stringify(setup)).toContain(installedPackage);
    const status = await cli.ok<{
      browsers: { browser: string; registered: boolean; answers: { ok: boolean } }[];
    }>(['host', 'status', '--browser', 'chromium']);
    expect(status.browsers).toEqual([
      expect.objectContaining({
        browser: 'chromium',
        registered: true,
        answers: expect.objectContaining({ ok: true }),
      }),
    ]);
    browser = await launchWithExtension({
      userDataDir: join(config, 'chromium'),
      env: cli.environment(),
      extensionDir: join(installedPackage, 'dist', 'extension'),
    });
    const popup = await browser.context.newPage();
    try {
      await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
      await until(
        'the packaged extension to pair through the installed native host and connect',
        async () => {
          const paired = await popup.textContent('#paired');
          const connection = (await popup.textContent('#connection')) ?? '';
          return paired === 'yes, by the native host' && /^connected/i.test(connection);
        },
        45_000,
      );
    } finally {
      await popup.close();
    }
    await cli.stop();
  }, 120_000);
});
