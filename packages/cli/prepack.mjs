#!/usr/bin/env node
// `npm pack` / `npm publish` of the `bproxy` package: builds every bundle and the extension (the
// package ships dist/, which git ignores), then copies the README, LICENSE and CHANGELOG from the
// repository's root, where they live. BPROXY_PACK_PREBUILT=1 packs the bundles already built. `--clean` (postpack) removes those copies again.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const COPIED = ['README.md', 'LICENSE', 'CHANGELOG.md'];

if (process.argv.includes('--clean')) {
  for (const name of COPIED) rmSync(join(here, name), { force: true });
} else if (process.env.BPROXY_PACK_PREBUILT === '1') {
  // The pack-and-install test packs what `node scripts/build.mjs` built before the suite, without
  // rebuilding under the other tests' feet; it must all be there.
  for (const name of ['bproxy.mjs', 'daemon.mjs', 'native-host.mjs', 'extension/manifest.json'])
    if (!existsSync(join(here, 'dist', name))) {
      console.error(`prepack: dist/${name} is missing; run node scripts/build.mjs`);
      process.exit(1);
    }
  for (const name of COPIED) copyFileSync(join(root, name), join(here, name));
} else {
  // The build's progress goes to stderr: `npm pack --json` prints its answer on stdout.
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  for (const name of COPIED) copyFileSync(join(root, name), join(here, name));
}
