/**
 * The entry of dist/bridge.mjs: what `bproxy bridge` and the `bproxy-bridge` executable run. The
 * watchdog's bundle sits next to this one.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runBridge } from './run-bridge';

export async function bridgeMain(argv: readonly string[]): Promise<never> {
  // A tool that went away closes our stderr; a late write must not take the cleanup down with it.
  process.stderr.on('error', () => undefined);
  const watchdog = fileURLToPath(new URL('./bridge-watchdog.mjs', import.meta.url));
  const code = await runBridge(argv, process.env, {
    stderr: (text) => process.stderr.write(text),
    watchdogScript: existsSync(watchdog) ? watchdog : undefined,
  });
  process.exit(code);
}
