// Builds the `bproxy` CLI, the daemon it starts, the bundles its heavier commands load (mcp, agent,
// bridge) and the native messaging host: self-contained ESM bundles side by side in dist/, so that
// `service start` finds the daemon at new URL('./daemon.mjs', import.meta.url) and each command (and
// the host) finds its bundle the same way.
import { build as esbuild } from 'esbuild';
import { chmodSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The model SDKs the agent imports for its provider only; never bundled (package.json lists them). */
export const AGENT_SDKS = ['@anthropic-ai/sdk', 'openai', '@github/copilot-sdk'];
/** What the bundles leave out and import at run time (package.json declares each). */
export const EXTERNALS = ['@lydell/node-pty', ...AGENT_SDKS];

// CommonJS dependencies (commander, fastify, pino) call require(); ESM output has none of its own.
const banner = {
  js: "import { createRequire as __bproxyCreateRequire } from 'node:module'; const require = __bproxyCreateRequire(import.meta.url);",
};

/** @param {{ outdir?: string }} [options] `outdir` lets tests build into a temporary directory. */
export async function build(options = {}) {
  const outdir = options.outdir ?? join(here, 'dist');
  rmSync(join(outdir, 'agent-chunks'), { recursive: true, force: true });
  // The daemon embeds the page script for its CDP driver, so one file carries everything it injects.
  const pageBundle = join(here, '..', 'page', 'dist', 'page.js');
  if (!existsSync(pageBundle)) await (await import('../page/build.mjs')).build();
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  };
  await Promise.all([
    esbuild({ ...common, entryPoints: [join(here, 'src', 'main.ts')], outfile: join(outdir, 'bproxy.mjs') }),
    // `bproxy mcp` loads this one alone, so the MCP SDK never weighs on the other commands.
    esbuild({
      ...common,
      entryPoints: [join(here, 'src', 'mcp', 'entry.ts')],
      outfile: join(outdir, 'mcp.mjs'),
    }),
    // `bproxy agent` loads this one alone (the agent's configuration files).
    esbuild({
      ...common,
      entryPoints: [join(here, 'src', 'agent', 'entry.ts')],
      outfile: join(outdir, 'agent.mjs'),
    }),
    // `bproxy bridge` and the bproxy-bridge executable load this one; its watchdog runs on its own.
    esbuild({
      ...common,
      entryPoints: [join(here, '..', 'bridge', 'src', 'main.ts')],
      outfile: join(outdir, 'bridge.mjs'),
    }),
    esbuild({
      ...common,
      entryPoints: [join(here, '..', 'bridge', 'src', 'watchdog-main.ts')],
      outfile: join(outdir, 'bridge-watchdog.mjs'),
    }),
    // The native messaging host the browsers start (through the launcher `bproxy host install` writes),
    // and the agent it imports when a chat begins. The model SDKs stay outside: they are loaded from
    // node_modules for the provider in use only (the Copilot SDK finds its runtime through its own
    // package), and the PTY's native addon cannot be bundled.
    esbuild({
      ...common,
      entryPoints: [join(here, '..', 'native-host', 'src', 'entry.ts')],
      outfile: join(outdir, 'native-host.mjs'),
      external: ['@lydell/node-pty'],
    }),
    // Split so that each provider (and the SDK it imports) is its own chunk, loaded when that provider
    // is chosen: the SDKs are optional (the package declares them as optional peers), so
    // agent-runtime.mjs must load without any of them.
    esbuild({
      ...common,
      entryPoints: { 'agent-runtime': join(here, '..', 'agent', 'src', 'index.ts') },
      outdir,
      splitting: true,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'agent-chunks/[name]-[hash]',
      external: AGENT_SDKS,
    }),
    esbuild({
      ...common,
      entryPoints: [join(here, '..', 'daemon', 'src', 'main.ts')],
      outfile: join(outdir, 'daemon.mjs'),
      define: { __BPROXY_PAGE_BUNDLE__: JSON.stringify(readFileSync(pageBundle, 'utf8')) },
    }),
  ]);
  // What tools run as "Chrome" (`bproxy bridge --print-path`): an executable file, valid as CommonJS and
  // as ESM so that it runs wherever it is copied.
  const bridgeExecutable = join(outdir, 'bproxy-bridge');
  writeFileSync(
    bridgeExecutable,
    "#!/usr/bin/env node\nimport('./bridge.mjs').then((bridge) => bridge.bridgeMain(process.argv.slice(2)));\n",
  );
  chmodSync(bridgeExecutable, 0o755);
  // Windows runs no extensionless script: a batch file beside it runs the same script with node.
  writeFileSync(`${bridgeExecutable}.cmd`, BRIDGE_CMD);
  // The unpacked extension ships inside the package (dist/extension/, see src/extension-folder.ts), so
  // "Load unpacked" has a folder wherever bproxy is installed. scripts/build.mjs builds it first.
  const extension = join(here, '..', 'extension', 'dist', 'unpacked');
  const extensionCopy = join(outdir, 'extension');
  rmSync(extensionCopy, { recursive: true, force: true });
  if (existsSync(join(extension, 'manifest.json'))) cpSync(extension, extensionCopy, { recursive: true });
  return {
    cli: join(outdir, 'bproxy.mjs'),
    bridge: bridgeExecutable,
    daemon: join(outdir, 'daemon.mjs'),
    mcp: join(outdir, 'mcp.mjs'),
    agent: join(outdir, 'agent.mjs'),
    nativeHost: join(outdir, 'native-host.mjs'),
  };
}

/** dist/bproxy-bridge.cmd: `node` (from PATH) running the bproxy-bridge script of its own folder. */
export const BRIDGE_CMD = '@node "%~dp0bproxy-bridge" %*\r\n';

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
