// Builds the extension: dist/unpacked/ (load it with "Load unpacked") and dist/bproxy-extension.zip
// (for the stores). The page script is taken from packages/page/dist, so @bproxy/page builds first.
import { build as esbuild } from 'esbuild';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { iconPng } from './scripts/icon.mjs';
import { zip } from './scripts/zip.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ICON_SIZES = [16, 32, 48, 128];

function listFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

export async function build() {
  const dist = join(here, 'dist');
  const out = join(dist, 'unpacked');
  const pageScript = join(here, '..', 'page', 'dist', 'page.js');
  if (!existsSync(pageScript))
    throw new Error(`${pageScript} is missing: build @bproxy/page first (node scripts/build.mjs)`);

  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(out, 'icons'), { recursive: true });

  await esbuild({
    entryPoints: {
      background: join(here, 'src', 'background', 'index.ts'),
      popup: join(here, 'src', 'popup', 'popup.ts'),
      panel: join(here, 'src', 'panel', 'panel.ts'),
    },
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome116',
    // Readable output: store reviewers read what they approve.
    minify: false,
    legalComments: 'none',
    logLevel: 'warning',
  });

  const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8'));
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of ['popup.html', 'popup.css', 'panel.html', 'panel.css', 'welcome.html', 'welcome.css'])
    copyFileSync(join(here, 'static', file), join(out, file));
  copyFileSync(join(here, 'static', 'chat.css'), join(out, 'chat.css'));
  // The terminal's stylesheet, from the xterm.js the panel bundles.
  copyFileSync(
    join(dirname(require.resolve('@xterm/xterm/package.json')), 'css', 'xterm.css'),
    join(out, 'xterm.css'),
  );
  copyFileSync(pageScript, join(out, 'page.js'));
  for (const size of ICON_SIZES) writeFileSync(join(out, 'icons', `icon-${size}.png`), iconPng(size));

  // The stores assign their own id and reject a "key": the zip carries the manifest without it.
  const entries = listFiles(out).map((path) => {
    const name = relative(out, path).split('\\').join('/');
    if (name !== 'manifest.json') return { name, data: readFileSync(path) };
    const { key: _key, ...storeManifest } = manifest;
    return { name, data: Buffer.from(`${JSON.stringify(storeManifest, null, 2)}\n`) };
  });
  const zipFile = join(dist, 'bproxy-extension.zip');
  writeFileSync(zipFile, zip(entries));
  return { out, zipFile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { out, zipFile } = await build();
  console.error(`[extension] ${out}\n[extension] ${zipFile}`);
}
