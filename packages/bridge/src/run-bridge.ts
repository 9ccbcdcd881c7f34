/**
 * `bproxy bridge` from start to exit: read the tool's switches and the configuration, get hold of the
 * real browser, serve the tool (pipe, endpoint or both), and on the way out stop what must be stopped
 * — a headless browser the bridge launched — and nothing else. Resolves with the exit code.
 */
import { randomBytes } from 'node:crypto';
import { connectWebSocket, redact, type CdpTransport } from '@bproxy/cdp/wire';
import { BPROXY_VERSION } from '@bproxy/protocol/plain';
import { parseToolArgs, type ToolArgs } from './args/tool-args';
import { readBridgeConfig, type BridgeConfig, type Env } from './config';
import { listTargets } from './downstream/list-targets';
import { BrowserKeeper } from './lifecycle/browser-keeper';
import type { LaunchObserver } from './downstream/attach-or-launch';
import { stopLaunchedHeadless, waitForOwnExit } from './lifecycle/stop-launched';
import { watchdogObserver } from './lifecycle/watchdog';
import { openBridgeLog, type BridgeLogger } from './log';
import { makePlan, type BridgePlan } from './plan';
import { Relay } from './relay/relay';
import { startEndpoint, type Endpoint } from './upstream/endpoint-server';
import { checkPipeFds, openPipeUpstream, type PipeUpstream } from './upstream/pipe-upstream';

/** How many requests may wait for a lost browser, per tool connection. */
const QUEUE_LIMIT = 1_000;

/**
 * After a forwarded Browser.close: how long the browser has to end its targets, close its DevTools
 * connections and exit by itself (writing its profile) before the bridge stops it.
 */
const CLOSE_GRACE_MS = 10_000;

export interface BridgeIo {
  /** Chrome's channel to the tool for its "DevTools listening on" line and for fatal errors. */
  readonly stderr: (text: string) => void;
  /** dist/bridge-watchdog.mjs; undefined: no watchdog (tests of the source tree). */
  readonly watchdogScript: string | undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Setup {
  readonly args: ToolArgs;
  readonly config: BridgeConfig;
  readonly plan: BridgePlan;
}

/** Everything that can be refused before a browser is touched; undefined after saying why on stderr. */
async function prepare(
  argv: readonly string[],
  env: Env & NodeJS.ProcessEnv,
  io: BridgeIo,
): Promise<Setup | undefined> {
  try {
    const args = parseToolArgs(argv);
    const config = readBridgeConfig(env);
    const plan = await makePlan(args, config, env);
    if (args.pipe) checkPipeFds();
    return { args, config, plan };
  } catch (error) {
    io.stderr(`bproxy bridge: ${message(error)}\n`);
    return undefined;
  }
}

export async function runBridge(
  argv: readonly string[],
  env: Env & NodeJS.ProcessEnv,
  io: BridgeIo,
): Promise<number> {
  const setup = await prepare(argv, env, io);
  if (setup === undefined) return 1;
  const { config, plan } = setup;
  const { logger, flush } = openBridgeLog(config.home, config.logLevel);
  // Told of every launch before the browser process exists: a bridge killed at any moment leaves none.
  const watchdog = watchLaunches(setup, io);
  const keeper = new BrowserKeeper({
    transportMode: plan.transportMode,
    acquire: () => plan.acquire(watchdog),
    logger,
  });
  logger.info(
    {
      ...keeper.fields(),
      downstream: config.downstream,
      cdpUrl: config.cdpUrl === undefined ? undefined : redact(config.cdpUrl),
      requestedUserDataDir: plan.userDataDir,
      headless: plan.headless,
      endpointPort: plan.endpointPort,
      profileOwner: plan.profileOwner,
      forwardedArgs: plan.forwardedArgs,
      droppedArgs: plan.droppedArgs,
    },
    'bridge starting',
  );

  let exitCode = 0;
  let closed: () => void = () => undefined;
  const closing = new Promise<void>((resolve) => (closed = resolve));
  keeper.onClosing(({ failed }) => {
    if (failed) exitCode = 1;
    closed();
  });
  const onSignal = (signal: NodeJS.Signals): void => keeper.close(`received ${signal}`, false);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);

  const served = new Served();
  try {
    await keeper.start();
    if (keeper.state === 'connected') await serve(setup, keeper, logger, io, served);
  } catch (error) {
    logger.error({ ...keeper.fields(), error: message(error) }, 'the bridge could not start');
    io.stderr(`bproxy bridge: ${message(error)}\n`);
    keeper.close(`start failed: ${message(error)}`, true);
  }

  await closing;
  const closeStarted = performance.now();
  const browser = keeper.current;
  const browserCloses = served.browserClosed && browser?.ownership === 'launched';
  // After Browser.close the browser speaks last: its detach events reach every tool before the end.
  await served.close(browserCloses ? CLOSE_GRACE_MS : 0);
  let exitedAlone = false;
  if (browserCloses && browser?.pid !== undefined && plan.host !== undefined) {
    // Chrome writes its profile (cookies, preferences) on the way out: let it finish.
    const left = Math.max(0, CLOSE_GRACE_MS - (performance.now() - closeStarted));
    exitedAlone = await waitForOwnExit(plan.host, browser.pid, left);
    logger.info(
      { ...keeper.fields(), exitedAlone, closeMs: Math.round(performance.now() - closeStarted) },
      exitedAlone ? 'the browser closed itself' : 'the browser did not exit in time after Browser.close',
    );
  }
  if (
    !exitedAlone &&
    browser?.ownership === 'launched' &&
    browser.headless &&
    browser.pid !== undefined &&
    plan.host !== undefined
  ) {
    const outcome = await stopLaunchedHeadless(plan.host, {
      pid: browser.pid,
      userDataDir: plan.userDataDir ?? '',
      executablePath: plan.executablePath ?? '',
    }).catch((error: unknown) => ({ refused: message(error) }));
    logger.info({ ...keeper.fields(), stop: outcome }, 'cleanup: the launched headless browser');
  }
  for (const signal of signals) process.off(signal, onSignal);
  logger.info({ ...keeper.fields(), exitCode }, 'bridge exits');
  flush();
  return exitCode;
}

/** What serves the tool: the relays, the pipe and the endpoint, closed together. */
class Served {
  readonly relays = new Set<Relay>();
  pipe: PipeUpstream | undefined;
  endpoint: Endpoint | undefined;
  /** A tool's Browser.close was forwarded to a browser the bridge launched. */
  browserClosed = false;

  /** Each relay relays what the browser still says for up to `drainMs`, then closes. */
  async close(drainMs: number): Promise<void> {
    await Promise.all([...this.relays].map((relay) => relay.finish(drainMs)));
    // The tool's last answer (to Browser.close, say) must reach it before the bridge exits.
    await this.pipe?.flushed(2_000);
    await this.endpoint?.close();
  }
}

/**
 * The watchdog, when the bridge may launch a headless browser on this host: started with the first
 * launch, before the browser process, so that no moment of a launch is uncovered.
 */
function watchLaunches(setup: Setup, io: BridgeIo): LaunchObserver | undefined {
  const { config, plan } = setup;
  if (
    !plan.headless ||
    plan.host === undefined ||
    io.watchdogScript === undefined ||
    plan.executablePath === undefined ||
    plan.userDataDir === undefined
  )
    return undefined;
  return watchdogObserver(io.watchdogScript, {
    bridgePid: process.pid,
    userDataDir: plan.userDataDir,
    executablePath: plan.executablePath,
    config,
  });
}

async function serve(
  setup: Setup,
  keeper: BrowserKeeper,
  logger: BridgeLogger,
  io: BridgeIo,
  served: Served,
): Promise<void> {
  const { args, config, plan } = setup;
  const relayFor = (transport: CdpTransport, name: string): void => {
    const relay: Relay = new Relay({
      name,
      upstream: transport,
      keeper,
      logger,
      connect: (url) => connectWebSocket(url, config.launchTimeoutMs),
      queueLimit: QUEUE_LIMIT,
      queueTimeoutMs: config.queueTimeoutMs,
      onBrowserClose: (outcome) => {
        if (outcome === 'forwarded') served.browserClosed = true;
        keeper.close(`Browser.close (${outcome})`, false);
      },
      onUpstreamClosed: (reason) => {
        // The pipe is the tool's only line: like Chrome, the bridge ends with it. An endpoint
        // client leaving is just that (Chrome keeps running when a DevTools client disconnects).
        if (name === 'pipe') keeper.close(`the tool closed the pipe (${reason})`, false);
        else {
          served.relays.delete(relay);
          logger.info({ relay: name }, 'a tool disconnected');
        }
      },
    });
    served.relays.add(relay);
    relay.start();
  };
  if (args.pipe) {
    served.pipe = openPipeUpstream();
    relayFor(served.pipe.transport, 'pipe');
  }
  if (plan.endpointPort === undefined) return;
  served.endpoint = await startEndpoint({
    port: plan.endpointPort,
    token: config.token ?? randomBytes(32).toString('base64url'),
    product: `bproxy-bridge/${BPROXY_VERSION}`,
    listTargets: async () => listTargets((await keeper.recover()).wsUrl, 10_000),
    onSocket: relayFor,
    logger,
  });
  logger.info(
    { ...keeper.fields(), endpoint: `ws://127.0.0.1:${served.endpoint.port}/devtools/browser/…` },
    'endpoint listening',
  );
  // The line Chrome prints, which Puppeteer and Playwright wait for when they launch with a port.
  io.stderr(`\nDevTools listening on ${served.endpoint.wsUrl}\n`);
}
