/**
 * The optional model SDKs: the ranges the agent names are the ones the bproxy package declares, a
 * missing SDK is found the way Node looks for it, and a provider whose SDK is missing fails with
 * AGENT_NOT_CONFIGURED naming the one command that installs it — not with a module error.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROVIDER_SDKS, sdkInstalled } from '../../src/config/sdk';

const ROOT = join(__dirname, '..', '..', '..', '..');
const root = mkdtempSync(join(tmpdir(), 'bproxy-sdk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the optional model SDKs', () => {
  it('are the bproxy package’s optional peers, with the same ranges, and not its dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    const sdks = Object.values(PROVIDER_SDKS).filter((sdk) => sdk !== null);
    expect(Object.fromEntries(sdks.map((sdk) => [sdk.name, sdk.range]))).toEqual(manifest.peerDependencies);
    for (const sdk of sdks) {
      expect(manifest.peerDependenciesMeta?.[sdk.name]?.optional).toBe(true);
      expect(manifest.dependencies?.[sdk.name]).toBeUndefined();
    }
  });

  it('are found in any node_modules folder above, as Node finds them', () => {
    mkdirSync(join(root, 'lib', 'node_modules', 'openai'), { recursive: true });
    writeFileSync(join(root, 'lib', 'node_modules', 'openai', 'package.json'), '{}');
    const bundles = join(root, 'lib', 'node_modules', 'bproxy', 'dist', 'agent-chunks');
    mkdirSync(bundles, { recursive: true });
    expect(sdkInstalled('openai', bundles)).toBe(true);
    expect(sdkInstalled('@anthropic-ai/sdk', bundles)).toBe(false);
  });

  /**
   * Runs loadProviderModule in a plain Node process (tsx for the source), importing `module`: the test
   * runner's own import would resolve the SDK from this repository, where every SDK is installed.
   */
  function loadIn(module: string): Promise<{ name: string; code?: string; message: string }> {
    const driver = join(root, 'chunk', `driver-${Math.random().toString(36).slice(2)}.mts`);
    const registry = pathToFileURL(join(__dirname, '..', '..', 'src', 'providers', 'registry.ts')).href;
    writeFileSync(
      driver,
      `import { loadProviderModule } from ${JSON.stringify(registry)};
try {
  await loadProviderModule('openai', () => import(${JSON.stringify(pathToFileURL(module).href)}));
  console.log(JSON.stringify({ name: 'none', message: 'loaded' }));
} catch (error) {
  console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message }));
}
`,
    );
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', driver],
        { cwd: ROOT, timeout: 30_000 },
        (error, stdout) => {
          if (error) reject(error);
          else resolve(JSON.parse(stdout) as { name: string; code?: string; message: string });
        },
      );
    });
  }

  it('missing, make the provider fail with AGENT_NOT_CONFIGURED and the commands that install it and link it into the host', async () => {
    // A provider module as the bundle has it, importing an SDK no folder above it holds.
    const module = join(root, 'chunk', 'openai-provider.mjs');
    mkdirSync(join(root, 'chunk'), { recursive: true });
    writeFileSync(module, "import OpenAI from 'openai';\nexport const Model = OpenAI;\n");
    const failure = await loadIn(module);
    expect(failure).toMatchObject({ name: 'AgentError', code: 'AGENT_NOT_CONFIGURED' });
    expect(failure.message).toContain('run `npm i -g openai@^7.57.0`, then `bproxy setup`');
  }, 40_000);

  it('leave every other failure of a provider module as it is', async () => {
    const module = join(root, 'chunk', 'broken.mjs');
    writeFileSync(module, "throw new Error('broken module');\n");
    expect(await loadIn(module)).toEqual({ name: 'Error', message: 'broken module' });
  }, 40_000);
});
