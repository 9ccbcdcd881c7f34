/**
 * The entry of dist/bridge-watchdog.mjs (see lifecycle/watchdog.ts): follows what the bridge says it
 * does, waits for the bridge's pipe to close, then stops the headless browser it launched if that is
 * still the browser it launched. A bridge that died between "launching" and the pid (a moment inside
 * one tick) is covered by looking for the headless browser on its profile: the bridge had just found
 * none there, so one that runs now is the one it started.
 */
import { createHost } from './downstream/create-host';
import { parseWatchdogNews, type WatchdogPlan } from './lifecycle/watchdog';
import { refusalToStop, stopLaunchedHeadless, type StopOutcome } from './lifecycle/stop-launched';
import { openBridgeLog } from './log';
import type { BrowserHost } from './downstream/browser-host';

const plan = JSON.parse(process.argv[2] ?? '{}') as WatchdogPlan;
const { logger, flush } = openBridgeLog(plan.config.home, plan.config.logLevel);
const fields = { watchdog: true, bridgePid: plan.bridgePid, userDataDir: plan.userDataDir };
// Detached from the terminal: a hang-up is not a reason to leave the browser behind.
process.on('SIGHUP', () => undefined);

/** What the bridge last said: nothing yet, launching, launched this pid, attached (not ours). */
let state: 'idle' | 'launching' | 'attached' | { pid: number } = 'idle';

async function stopLaunching(host: BrowserHost): Promise<StopOutcome> {
  const identity = { pid: 0, userDataDir: plan.userDataDir, executablePath: plan.executablePath };
  const ours = (await host.list()).filter(
    (proc) => refusalToStop(host, proc, { ...identity, pid: proc.pid }) === undefined,
  );
  for (const proc of ours) await host.stop(proc.pid);
  return ours.length > 0 ? 'stopped' : 'already-gone';
}

let done = false;
async function bridgeGone(): Promise<void> {
  if (done) return;
  done = true;
  const at = typeof state === 'object' ? { browserPid: state.pid } : { bridgeWas: state };
  try {
    const choice = createHost(plan.config, process.env);
    if (choice === undefined || state === 'idle' || state === 'attached') {
      logger.info({ ...fields, ...at }, 'watchdog: the bridge is gone; it launched nothing to stop');
      return;
    }
    const outcome =
      state === 'launching'
        ? await stopLaunching(choice.host)
        : await stopLaunchedHeadless(choice.host, { ...plan, pid: state.pid });
    if (outcome === 'stopped')
      logger.warn(
        { ...fields, ...at },
        'watchdog: the bridge died; stopped the headless browser it launched',
      );
    else if (outcome === 'already-gone')
      logger.info({ ...fields, ...at }, 'watchdog: the bridge is gone and so is its browser');
    else logger.warn({ ...fields, ...at, refused: outcome.refused }, 'watchdog: left the process alone');
  } catch (error) {
    logger.error(
      { ...fields, ...at, error: error instanceof Error ? error.message : String(error) },
      'watchdog failed',
    );
  } finally {
    flush();
    process.exit(0);
  }
}

let pending = '';
process.stdin.on('data', (chunk: Buffer) => {
  pending += chunk.toString('utf8');
  for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
    const news = parseWatchdogNews(pending.slice(0, end));
    pending = pending.slice(end + 1);
    if (news === undefined) continue;
    if ('launching' in news) state = 'launching';
    else if ('pid' in news) state = { pid: news.pid };
    else state = 'attached';
    logger.debug({ ...fields, news }, 'watchdog: news from the bridge');
  }
  // The bridge writes a few short lines; anything longer is not from it.
  if (pending.length > 4096) pending = '';
});
process.stdin.on('end', () => void bridgeGone());
process.stdin.on('close', () => void bridgeGone());
process.stdin.on('error', () => void bridgeGone());
logger.info(fields, 'watchdog: watching the bridge');
