/**
 * Browsers the daemon starts, scripted: a BrowserLauncher whose start() hands the daemon one end of an
 * in-process transport pair, on the far end a driver that says hello and answers tab.open / tab.close
 * like a browser would. It counts starts and records how each driver was closed, so a test sees what
 * the daemon opened and ended. The far side of the daemon's launcher code only; e2e uses real ones.
 */
import { randomBytes } from 'node:crypto';
import {
  PROTOCOL_VERSION,
  createLinkedTransportPair,
  type BproxyForwardedRequest,
  type DaemonMessage,
  type DriverMessage,
  type MessageTransport,
} from '@bproxy/protocol';
import type { BrowserLauncher, LaunchOptions, LauncherKind } from '../../src/server-options';

export interface ScriptedDriver {
  readonly name: string;
  /** Whether the daemon called stop() (ended the browser and waited for it to be gone). */
  stopCalled: boolean;
  readonly launch: LaunchOptions;
  /** Why the daemon closed it, once it did. */
  closedBecause: string | null;
  /** Forwarded requests, in order. */
  readonly received: BproxyForwardedRequest[];
}

export interface ScriptedLauncher {
  readonly launcher: BrowserLauncher;
  readonly drivers: ScriptedDriver[];
  /** Drivers the daemon has not closed. */
  open(): ScriptedDriver[];
  /** Makes the next starts fail with this error (a farm refusing), or succeed again with null. */
  failStarts(error: Error | null): void;
  /** Holds every browser's stop() until the returned release is called (never called: a browser that will not exit). */
  holdStops(): () => void;
  /** Holds tab.open answers until the returned release is called. */
  holdTabOpens(): () => void;
}

export function scriptedLauncher(name: string, kind: LauncherKind, maxBrowsers = 2): ScriptedLauncher {
  const drivers: ScriptedDriver[] = [];
  let failure: Error | null = null;
  let held: Promise<void> | null = null;
  let stopsHeld: Promise<void> | null = null;
  const start = async (launch: LaunchOptions) => {
    if (failure !== null) throw failure;
    const [daemonEnd, driverEnd] = createLinkedTransportPair<DriverMessage, DaemonMessage>();
    const driver: ScriptedDriver = {
      name: launch.name,
      stopCalled: false,
      launch,
      closedBecause: null,
      received: [],
    };
    drivers.push(driver);
    serve(driverEnd, driver, () => held);
    driverEnd.send({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      client: {
        instanceId: launch.instanceId ?? randomBytes(9).toString('base64url'),
        kind: 'cdp',
        name: launch.name,
      },
    });
    const stop = async () => {
      driver.stopCalled = true;
      await stopsHeld;
    };
    return { link: daemonEnd, stop };
  };
  return {
    launcher: kind === 'per-session' ? { name, kind, maxBrowsers, start } : { name, kind, start },
    drivers,
    open: () => drivers.filter((d) => d.closedBecause === null),
    failStarts(error) {
      failure = error;
    },
    holdStops() {
      let release = () => {};
      stopsHeld = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    holdTabOpens() {
      let release = () => {};
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
  };
}

function serve(
  end: MessageTransport<DaemonMessage, DriverMessage>,
  driver: ScriptedDriver,
  held: () => Promise<void> | null,
): void {
  let nextTab = 1;
  end.onclose = (reason) => {
    driver.closedBecause = reason;
  };
  end.onmessage = (message) => {
    if (message.type !== 'request') return;
    const request = message.request;
    driver.received.push(request);
    const answer = async (): Promise<unknown> => {
      if (request.action === 'tab.open') {
        await held();
        return { tabId: nextTab++, url: String(request.params.url), title: 'Page' };
      }
      if (request.action === 'tab.close') return { closed: true };
      if (request.action === 'inspect' && request.params.approval !== undefined) {
        // The approvals' read: a page whose "#pay" is a Pay button.
        const pay = JSON.stringify(request.params.target).includes('#pay');
        return {
          tag: 'button',
          role: 'button',
          name: pay ? 'Pay' : 'Help',
          text: '',
          attributes: {},
          box: { x: 0, y: 0, width: 10, height: 10 },
          visible: true,
          enabled: true,
          inViewport: true,
          sensitive: pay ? { class: 'submit', name: 'Pay', fields: [] } : { name: 'Help', fields: [] },
        };
      }
      return { url: 'http://x/', title: 'Page' };
    };
    void answer().then((data) => end.send({ type: 'response', id: request.id, ok: true, data }));
  };
}
