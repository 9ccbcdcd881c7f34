/**
 * The entry of dist/bridge-watchdog.mjs (see lifecycle/watchdog.ts): waits for the bridge's pipe to
 * close, then stops the headless browser it launched if that is still the browser it launched.
 */
import { createHost } from './downstream/create-host';
import type { WatchdogPlan } from './lifecycle/watchdog';
import { stopLaunchedHeadless } from './lifecycle/stop-launched';
import { openBridgeLog } from './log';

const plan = JSON.parse(process.argv[2] ?? '{}') as WatchdogPlan;
const { logger, flush } = openBridgeLog(plan.config.home, plan.config.logLevel);
const fields = {
  watchdog: true,
  bridgePid: plan.bridgePid,
  browserPid: plan.pid,
  userDataDir: plan.userDataDir,
};
// Detached from the terminal: a hang-up is not a reason to leave the browser behind.
process.on('SIGHUP', () => undefined);

let done = false;
async function bridgeGone(): Promise<void> {
  if (done) return;
  done = true;
  try {
    const choice = createHost(plan.config, process.env);
    if (choice === undefined) return;
    const outcome = await stopLaunchedHeadless(choice.host, plan);
    if (outcome === 'stopped')
      logger.warn(fields, 'watchdog: the bridge died; stopped the headless browser it launched');
    else if (outcome === 'already-gone')
      logger.info(fields, 'watchdog: the bridge is gone and so is its browser');
    else logger.warn({ ...fields, refused: outcome.refused }, 'watchdog: left the process alone');
  } catch (error) {
    logger.error(
      { ...fields, error: error instanceof Error ? error.message : String(error) },
      'watchdog failed',
    );
  } finally {
    flush();
    process.exit(0);
  }
}

process.stdin.on('data', () => undefined);
process.stdin.on('end', () => void bridgeGone());
process.stdin.on('close', () => void bridgeGone());
process.stdin.on('error', () => void bridgeGone());
logger.info(fields, 'watchdog: watching the bridge');
