/**
 * The one place the host starts a daemon. The browser asked for it, not the user: such a daemon is
 * started *implicitly*, and the core issue's idle rule applies to it (it exits after an idle period,
 * unlike one the user started with `bproxy service start`). startDaemon spawns it detached, in its
 * own process group, with its stdio ignored, so it outlives the host and its browser.
 */
import type { Env } from '@bproxy/client';
import { startDaemon } from '@bproxy/client/service';

export async function startDaemonImplicitly(script: string, env: Env): Promise<void> {
  await startDaemon({ script, env, implicit: true });
}
