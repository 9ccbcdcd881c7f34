/**
 * `bproxy bridge` from start to exit: read the tool's switches and the configuration, get hold of the
 * real browser, serve the tool (pipe, endpoint or both), and on the way out stop what must be stopped
 * — a headless browser the bridge launched — and nothing else. Resolves with the exit code.
 */
import { randomBytes } from 'node:crypto';
import { connectWebSocket, redact, type CdpTransport } from '@bproxy/cdp/wire';
import { BPROXY_VERSION } from '@bproxy/protocol/plain';
import { parseToolArgs } from './args/tool-args';
import { readBridgeConfig, type Env } from './config';
import { listTargets } from './downstream/list-targets';
import { BrowserKeeper } from './lifecycle/browser-keeper';
import { stopLaunchedHeadless } from './lifecycle/stop-launched';
import { startWatchdog } from './lifecycle/watchdog';
import { openBridgeLog } from './log';
import { makePlan } from './plan';
import { Relay } from './relay/relay';
import { startEndpoint, type Endpoint } from './upstream/endpoint-server';
import { checkPipeFds, openPipeUpstream, type PipeUpstream } from './upstream/pipe-upstream';

/** How many requests may wait for a lost browser, per tool connection. */
const QUEUE_LIMIT = 1_000;

export interface BridgeIo {
  /** Chrome's channel to the tool for its "DevTools listening on" line and for fatal errors. */
  readonly stderr: (text: string) => void;
  /** dist/bridge-watchdog.mjs; undefined: no watchdog (tests of the source tree). */
  readonly watchdogScript: string | undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function runBridge(
  argv: readonly string[],
  env: Env & NodeJS.ProcessEnv,
  io: BridgeIo,
): Promise<number> {
  let plan: Awaited<ReturnType<typeof makePlan>>;
  let config: ReturnType<typeof readBridgeConfig>;
  let pipe: PipeUpstream | undefined;
  const args = (() => {
    try {
      return parseToolArgs(argv);
    } catch (error) {
      io.stderr(`bproxy bridge: ${message(error)}\n`);
      return undefined;
    }
  })();
  if (args === undefined) return 1;
  try {
    config = readBridgeConfig(env);
    plan = await makePlan(args, config, env);
    if (args.pipe) checkPipeFds();
  } catch (error) {
    io.stderr(`bproxy bridge: ${message(error)}\n`);
    return 1;
  }
  const { logger, flush } = openBridgeLog(config.home, config.logLevel);
  const keeper = new BrowserKeeper({ transportMode: plan.transportMode, acquire: plan.acquire, logger });
  logger.info(
    {
      ...keeper.fields(),
      downstream: config.downstream,
      cdpUrl: config.cdpUrl === undefined ? undefined : redact(config.cdpUrl),
      requestedUserDataDir: plan.userDataDir,
      headless: plan.headless,
      endpointPort: plan.endpointPort,
      droppedArgs: args.dropped,
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
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let endpoint: Endpoint | undefined;
  const relays = new Set<Relay>();
  try {
    const browser = await keeper.start();
    if (
      plan.transportMode === 'pipe' &&
      browser.headless &&
      browser.ownership === 'launched' &&
      browser.pid !== undefined &&
      io.watchdogScript !== undefined &&
      plan.executablePath !== undefined &&
      plan.userDataDir !== undefined
    ) {
      startWatchdog(io.watchdogScript, {
        bridgePid: process.pid,
        pid: browser.pid,
        userDataDir: plan.userDataDir,
        executablePath: plan.executablePath,
        config,
      });
      logger.info({ ...keeper.fields(), watchdog: 'started' }, 'watchdog started');
    }
    const serve = (transport: CdpTransport, name: string): void => {
      const relay: Relay = new Relay({
        name,
        upstream: transport,
        keeper,
        logger,
        connect: (url) => connectWebSocket(url, config.launchTimeoutMs),
        queueLimit: QUEUE_LIMIT,
        queueTimeoutMs: config.queueTimeoutMs,
        onBrowserClose: (outcome) => keeper.close(`Browser.close (${outcome})`, false),
        onUpstreamClosed: (reason) => {
          // The pipe is the tool's only line: like Chrome, the bridge ends with it. An endpoint
          // client leaving is just that (Chrome keeps running when a DevTools client disconnects).
          if (name === 'pipe') keeper.close(`the tool closed the pipe (${reason})`, false);
          else {
            relays.delete(relay);
            logger.info({ relay: name }, 'a tool disconnected');
          }
        },
      });
      relays.add(relay);
      relay.start();
    };
    if (args.pipe) {
      pipe = openPipeUpstream();
      serve(pipe.transport, 'pipe');
    }
    if (plan.endpointPort !== undefined) {
      endpoint = await startEndpoint({
        port: plan.endpointPort,
        token: config.token ?? randomBytes(32).toString('base64url'),
        product: `bproxy-bridge/${BPROXY_VERSION}`,
        listTargets: async () => {
          const current = await keeper.recover();
          return listTargets(current.wsUrl, 10_000);
        },
        onSocket: (transport, name) => serve(transport, name),
        logger,
      });
      logger.info(
        { ...keeper.fields(), endpoint: `ws://127.0.0.1:${endpoint.port}/devtools/browser/…` },
        'endpoint listening',
      );
      // The line Chrome prints, which Puppeteer and Playwright wait for when they launch with a port.
      io.stderr(`\nDevTools listening on ${endpoint.wsUrl}\n`);
    }
  } catch (error) {
    logger.error({ ...keeper.fields(), error: message(error) }, 'the bridge could not start');
    io.stderr(`bproxy bridge: ${message(error)}\n`);
    keeper.close(`start failed: ${message(error)}`, true);
  }

  await closing;
  for (const relay of relays) relay.closeUpstream();
  await pipe?.flushed(2_000);
  await endpoint?.close();
  const browser = keeper.current;
  if (
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
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  logger.info({ ...keeper.fields(), exitCode }, 'bridge exits');
  flush();
  return exitCode;
}
