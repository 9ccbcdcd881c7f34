// Bundles the page script (src/inject.ts) into dist/page.js: one self-contained IIFE that both drivers
// inject. zod must stay out of it (imports from @bproxy/protocol are types or the zod-free `plain` subpath).
import { build as esbuild } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// Injected into every page an agent reads: frames, diffs, waits and annotations fit within 100 KB.
const MAX_BYTES = 100_000;

export async function build() {
  const outfile = join(here, 'dist', 'page.js');
  const result = await esbuild({
    entryPoints: [join(here, 'src', 'inject.ts')],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    write: false,
  });
  const inputs = Object.keys(result.metafile.inputs);
  if (inputs.some((p) => p.includes('node_modules/zod')))
    throw new Error('page bundle pulled in zod; import from @bproxy/protocol/plain');
  const bytes = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].bytes;
  if (bytes > MAX_BYTES) throw new Error(`page bundle is ${bytes} bytes, over the ${MAX_BYTES} byte budget`);
  // Written atomically: drivers under test read this file while another test process may rebuild it.
  const [output] = result.outputFiles;
  mkdirSync(dirname(outfile), { recursive: true });
  const tmp = `${outfile}.${process.pid}.tmp`;
  writeFileSync(tmp, output.contents);
  renameSync(tmp, outfile);
  return { outfile, bytes };
}
