/**
 * A relay between a fake tool and fake browsers, with a real BrowserKeeper whose "attach or launch"
 * the test controls, and the log lines captured for the observability fields.
 */
import pino from 'pino';
import type { AcquiredBrowser, Ownership } from '../../src/downstream/attach-or-launch';
import { BrowserKeeper, type TransportMode } from '../../src/lifecycle/browser-keeper';
import type { BrowserCloseOutcome } from '../../src/relay/relay';
import { Relay } from '../../src/relay/relay';
import { fakeEnd, until, type FakeEnd } from './fake-transport';

export interface RelayFixture {
  tool: FakeEnd;
  /** One per connection the relay opened to "the browser", in order. */
  browsers: FakeEnd[];
  keeper: BrowserKeeper;
  relay: Relay;
  acquired: number;
  closes: BrowserCloseOutcome[];
  lines: Record<string, unknown>[];
  /** Makes the next acquisitions wait until the returned function is called (or reject with `error`). */
  holdAcquire(error?: Error): () => void;
}

export interface RelayFixtureOptions {
  ownership?: Ownership;
  transportMode?: TransportMode;
  queueLimit?: number;
  queueTimeoutMs?: number;
}

export async function relayFixture(options: RelayFixtureOptions = {}): Promise<RelayFixture> {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug', base: undefined },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  let hold: Promise<void> | undefined;
  let holdError: Error | undefined;
  const fixture = {
    browsers: [] as FakeEnd[],
    acquired: 0,
    closes: [] as BrowserCloseOutcome[],
    lines,
    holdAcquire(error?: Error) {
      let release: () => void = () => undefined;
      hold = new Promise<void>((resolve) => (release = resolve));
      holdError = error;
      return release;
    },
  };
  const keeper = new BrowserKeeper({
    transportMode: options.transportMode ?? 'ws',
    logger,
    acquire: async (): Promise<AcquiredBrowser> => {
      if (hold !== undefined) await hold;
      if (holdError !== undefined) throw holdError;
      fixture.acquired++;
      return {
        wsUrl: `ws://127.0.0.1:9/devtools/browser/${fixture.acquired}`,
        ownership: options.ownership ?? 'launched',
        pid: 100 + fixture.acquired,
        port: 9000 + fixture.acquired,
        headless: true,
        userDataDir: '/profiles/p',
      };
    },
  });
  await keeper.start();
  const tool = fakeEnd();
  const relay = new Relay({
    name: 'ws#1',
    upstream: tool,
    keeper,
    logger,
    connect: async () => {
      const browser = fakeEnd();
      fixture.browsers.push(browser);
      return browser;
    },
    queueLimit: options.queueLimit ?? 100,
    queueTimeoutMs: options.queueTimeoutMs ?? 30_000,
    onBrowserClose: (outcome) => fixture.closes.push(outcome),
    onUpstreamClosed: () => undefined,
  });
  relay.start();
  await until('the first browser connection', () => fixture.browsers[0]?.onmessage !== undefined);
  return Object.assign(fixture, { tool, keeper, relay });
}

/** The browser's answer to the last request it got. */
export function answerLast(browser: FakeEnd, result: Record<string, unknown> = {}): void {
  const last = browser.sent.at(-1);
  browser.deliver({ id: last?.id, result });
}
