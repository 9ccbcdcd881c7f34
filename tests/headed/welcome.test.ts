/**
 * A sign of success after install, in a real headed browser: the extension, paired by the native host
 * with nobody typing anything, opens its welcome page once, in front — "Paired with bproxy on this
 * computer", how to pin the icon (an extension cannot pin itself) and what to do next. A browser
 * restart on the same profile (the pairing kept) opens no second one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevtoolsTarget, listTargets, waitForTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { until } from '../kit/wait';

let machine: HeadedMachine;

beforeAll(async () => {
  machine = await launchHeaded('bproxy-headed-welcome-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
}, 60_000);

const welcomeUrl = (): string => `chrome-extension://${machine.browser.extensionId}/welcome.html`;
const welcomes = async (): Promise<number> =>
  (await listTargets(machine.port)).filter((t) => t.type === 'page' && t.url === welcomeUrl()).length;

describe('the welcome page after the first pairing', () => {
  it('says paired, in front, with how to pin the icon and what to do next — once, not after a restart', async () => {
    const info = await waitForTarget(machine.port, (url) => url === welcomeUrl(), {
      what: 'the welcome page',
    });
    const page = await DevtoolsTarget.attach(info);
    await until('the welcome page to load', () =>
      page.evaluate<boolean>("document.readyState === 'complete'"),
    );
    expect(await page.evaluate<string>("document.getElementById('paired').textContent")).toBe(
      'Paired with bproxy on this computer',
    );
    const text = await page.evaluate<string>('document.body.innerText');
    expect(text).toMatch(/puzzle-piece button/);
    expect(text).toMatch(/pin next to bproxy/);
    expect(text).toMatch(/Open side panel/);
    // In front: the tab the person looks at.
    expect(await page.evaluate<string>('document.visibilityState')).toBe('visible');
    expect(await welcomes()).toBe(1);
    page.close();

    await machine.restartBrowser();
    await until(
      'the restarted browser to connect on its kept pairing',
      () =>
        machine.inWorker(
          () =>
            (globalThis as unknown as { bproxyStatus(): { state: string } }).bproxyStatus().state ===
            'connected',
          null,
        ),
      30_000,
    );
    expect(
      await machine.inWorker(async () => {
        const api = (
          globalThis as unknown as {
            chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } };
          }
        ).chrome;
        return typeof (await api.storage.local.get('welcomedAt')).welcomedAt;
      }, null),
    ).toBe('number');
    expect(await welcomes()).toBe(0);
  }, 120_000);
});
