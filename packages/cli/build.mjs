// Builds the `bproxy` CLI and the daemon it starts: two self-contained ESM bundles side by side in
// dist/, so that `service start` finds the daemon at new URL('./daemon.mjs', import.meta.url).
import { build as esbuild } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// CommonJS dependencies (commander, fastify, pino) call require(); ESM output has none of its own.
const banner = {
  js: "import { createRequire as __bproxyCreateRequire } from 'node:module'; const require = __bproxyCreateRequire(import.meta.url);",
};

/** @param {{ outdir?: string }} [options] `outdir` lets tests build into a temporary directory. */
export async function build(options = {}) {
  const outdir = options.outdir ?? join(here, 'dist');
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
    esbuild({
      ...common,
      entryPoints: [join(here, '..', 'daemon', 'src', 'main.ts')],
      outfile: join(outdir, 'daemon.mjs'),
      define: { __BPROXY_PAGE_BUNDLE__: JSON.stringify(readFileSync(pageBundle, 'utf8')) },
    }),
  ]);
  return {
    cli: join(outdir, 'bproxy.mjs'),
    daemon: join(outdir, 'daemon.mjs'),
    mcp: join(outdir, 'mcp.mjs'),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
