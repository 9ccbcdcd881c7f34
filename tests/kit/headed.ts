/**
 * The headed tier's machine (tests/headed): a user's machine as tests/kit/native-host.ts builds it —
 * `bproxy host install`, the built extension, the native host pairing it — but with Chromium headed on
 * a virtual screen of its own (tests/kit/xvfb.ts), so that the extension's real popup and real side
 * panel exist. They are reached as a debugger reaches them (tests/kit/devtools-target.ts): the popup
 * opened by the worker's `chrome.action.openPopup()`, its **Open side panel** button clicked with a
 * real mouse event, the panel then found in `/json/list`. Closing is bounded: the browser, then the
 * daemon and the folders, then the screen.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'playwright-core';
import { launchWithExtension } from './extension';
import { launchWithNativeHost, type NativeMachine } from './native-host';
import { DevtoolsTarget, listTargets, waitForTarget } from './devtools-target';
import { startXvfb, type VirtualScreen } from './xvfb';
import { until } from './wait';

export interface SidePanel {
  target: DevtoolsTarget;
  /** From the click on Open side panel to the panel's page answering, in ms. */
  openedInMs: number;
}

export interface HeadedMachine extends NativeMachine {
  screen: VirtualScreen;
  /** The browser's DevTools port (`/json/list`). */
  port: number;
  worker(): Promise<Worker>;
  /** Evaluates `fn(arg)` in the extension's service worker. */
  inWorker<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
  /** Opens the real popup (the worker's chrome.action.openPopup()) and attaches to it. */
  openPopup(): Promise<DevtoolsTarget>;
  /** Opens the real side panel with a real click on the popup's Open side panel button. */
  openSidePanel(): Promise<SidePanel>;
  /** Closes the side panel of the focused window (chrome.sidePanel.close), waiting until it is gone. */
  closeSidePanel(): Promise<void>;
  /**
   * Quits the browser and starts it again on the same profile, as a user restarting it: session
   * storage is emptied, the tabs of the last run are gone, the pairing kept. `browser` and the DevTools
   * port are the new browser's afterwards.
   */
  restartBrowser(): Promise<void>;
}

const panelUrl = (id: string) => (url: string) => url.startsWith(`chrome-extension://${id}/panel.html`);
const popupUrl = (id: string) => (url: string) => url.startsWith(`chrome-extension://${id}/popup.html`);

/** A headed machine, paired through the native host and connected. `env` goes to the browser and host. */
export async function launchHeaded(
  prefix = 'bproxy-headed-',
  env: Record<string, string> = {},
): Promise<HeadedMachine> {
  const screen = await startXvfb();
  let machine: NativeMachine;
  try {
    machine = await launchWithNativeHost(prefix, env, { display: screen.display });
  } catch (error) {
    await screen.close();
    throw error;
  }
  let browser = machine.browser;
  const close = async (): Promise<void> => {
    if (browser !== machine.browser) await browser.close();
    await machine.close();
    await screen.close();
  };
  const devtoolsPort = (): Promise<number> =>
    until(
      'DevToolsActivePort',
      () => Number(readFileSync(join(browser.userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]),
      20_000,
    );
  try {
    let port = await devtoolsPort();
    const inWorker = async <T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T> => {
      const worker = await browser.worker();
      // Playwright types the argument as it arrives (unboxed); ours are plain JSON values.
      const run = worker.evaluate.bind(worker) as (f: (a: A) => T | Promise<T>, a: A) => Promise<T>;
      return run(fn, arg);
    };
    const openPopup = async (): Promise<DevtoolsTarget> => {
      const before = new Set((await listTargets(port)).map((t) => t.id));
      await inWorker(async () => {
        const api = (globalThis as unknown as { chrome: { action: { openPopup(): Promise<void> } } }).chrome;
        await api.action.openPopup();
      }, null);
      const info = await waitForTarget(port, popupUrl(browser.extensionId), {
        except: before,
        what: 'the popup',
      });
      const popup = await DevtoolsTarget.attach(info);
      await until('the popup to load', () =>
        popup.evaluate<boolean>(
          "document.readyState === 'complete' && !!document.getElementById('open-panel')",
        ),
      );
      return popup;
    };
    const headed: HeadedMachine = {
      ...machine,
      screen,
      port,
      worker: () => browser.worker(),
      inWorker,
      openPopup,
      async openSidePanel() {
        const before = new Set((await listTargets(port)).map((t) => t.id));
        const popup = await openPopup();
        // The popup finds its window asynchronously and enables the button once it knows it.
        await until('the popup to know its window', () =>
          popup.evaluate<boolean>("document.getElementById('open-panel').disabled === false"),
        );
        const started = Date.now();
        try {
          // The popup closes itself once the panel opens: its last answer may never come.
          await popup.click('#open-panel').catch((error: unknown) => {
            if (!popup.gone) throw error;
          });
        } finally {
          popup.close();
        }
        const info = await waitForTarget(port, panelUrl(browser.extensionId), {
          except: before,
          what: 'the side panel',
        });
        const target = await DevtoolsTarget.attach(info);
        await until('the panel to load', () =>
          target.evaluate<boolean>(
            "document.readyState === 'complete' && !!document.getElementById('status')",
          ),
        );
        return { target, openedInMs: Date.now() - started };
      },
      async closeSidePanel() {
        const open = (await listTargets(port)).filter((t) => panelUrl(browser.extensionId)(t.url));
        await inWorker(async () => {
          const api = (
            globalThis as unknown as {
              chrome: {
                windows: { getLastFocused(): Promise<{ id?: number }> };
                sidePanel: { close(o: { windowId: number }): Promise<void> };
              };
            }
          ).chrome;
          const { id } = await api.windows.getLastFocused();
          if (id !== undefined) await api.sidePanel.close({ windowId: id });
        }, null);
        await until('the side panel to close', async () => {
          const ids = new Set((await listTargets(port)).map((t) => t.id));
          return open.every((t) => !ids.has(t.id));
        });
      },
      async restartBrowser() {
        const { userDataDir } = browser;
        await browser.close();
        rmSync(join(userDataDir, 'DevToolsActivePort'), { force: true });
        browser = await launchWithExtension({
          userDataDir,
          keepProfile: true,
          env: machine.cli.environment(),
          display: screen.display,
        });
        headed.browser = browser;
        port = await devtoolsPort();
        headed.port = port;
      },
      close,
    };
    return headed;
  } catch (error) {
    await close();
    throw error;
  }
}
