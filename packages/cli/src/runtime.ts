/**
 * Which runtime runs this CLI, and where the files shipped with it are. The same source runs as the
 * Node bundle (dist/bproxy.mjs) and as the Bun-compiled binary (dist/bproxy-<platform>-<arch>); in
 * the binary, import.meta.url points inside its embedded file system, so siblings are found next to
 * the executable instead.
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True in the compiled binary (and under `bun run`). */
export const IS_BUN = 'Bun' in globalThis;

/** The path of `name` (daemon.mjs, mcp.mjs) in the directory the CLI was installed to. */
export function besideCli(name: string): string {
  return IS_BUN
    ? join(dirname(realpathSync(process.execPath)), name)
    : fileURLToPath(new URL(`./${name}`, import.meta.url));
}
