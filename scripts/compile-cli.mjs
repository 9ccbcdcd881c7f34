#!/usr/bin/env node
// `npm run build:native`: the same TypeScript CLI (packages/cli/src/main.ts) compiled by Bun into one
// self-contained executable, packages/cli/dist/bproxy-<platform>-<arch>, which starts in a few
// milliseconds where Node needs ~60-90. The daemon stays a Node program: the binary runs
// `node daemon.mjs` from its own directory (or $BPROXY_DAEMON), so dist/daemon.mjs is built too.
// Bun comes from the @oven/bun-<platform>-<arch> devDependency, else $BUN, else `bun` on PATH.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = join(root, 'packages', 'cli');
const target = `${process.platform}-${process.arch}`;

export function findBun() {
  if (process.env.BUN) return process.env.BUN;
  try {
    const pkg = createRequire(import.meta.url).resolve(`@oven/bun-${target}/package.json`);
    const bin = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'bun.exe' : 'bun');
    if (existsSync(bin)) return bin;
  } catch {
    // not installed for this platform: try PATH
  }
  return 'bun';
}

/**
 * Compiles the TypeScript program `entry` with Bun into one executable, `outfile`, the way the CLI
 * is compiled (the benchmark compiles its one-call floor with the same flags, so the two compare).
 */
export function bunCompile(entry, outfile) {
  execFileSync(
    findBun(),
    [
      'build',
      entry,
      '--compile',
      // Bytecode skips parsing at start-up; minified code is what the bytecode is made from.
      '--bytecode',
      '--minify',
      '--format=esm',
      // One chunk per lazily imported part: the executable loads the bytecode of the chunks a run
      // imports, so an action (fast-path.ts) never pays for commander or zod, nor builds the help texts.
      '--splitting',
      // A CLI runs in whatever directory the agent is in: no .env or bunfig.toml from there may change
      // what it does (nor cost a lookup at every start).
      '--no-compile-autoload-dotenv',
      '--no-compile-autoload-bunfig',
      `--target=bun-${target}`,
      '--outfile',
      outfile,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return outfile;
}

/** Builds the binary (and the daemon bundle it runs) and returns the binary's path. */
export async function compileCli({ outfile = join(cliDir, 'dist', `bproxy-${target}`) } = {}) {
  // The Node bundles first, into the same directory: the binary finds daemon.mjs next to itself.
  await (await import('../packages/cli/build.mjs')).build({ outdir: dirname(outfile) });
  return bunCompile(join(cliDir, 'src', 'main.ts'), outfile);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await compileCli();
  console.log(out);
}
