/**
 * The person who decides approvals, as the approvals suite reaches them: the side panel page of an
 * extension paired to the daemon (opened as a tab: side panels do not render headless), and that
 * extension's toolbar badge, read in its service worker.
 */
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from './extension';
import { PANEL_SIZE } from './screenshots';

export async function openPanel(browser: ExtensionBrowser): Promise<Page> {
  const panel = await browser.context.newPage();
  await panel.setViewportSize(PANEL_SIZE);
  await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=1`);
  return panel;
}

export async function badgeText(browser: ExtensionBrowser): Promise<string> {
  const worker = await browser.worker();
  return worker.evaluate(() =>
    (
      globalThis as unknown as {
        chrome: { action: { getBadgeText(details: object): Promise<string> } };
      }
    ).chrome.action.getBadgeText({}),
  );
}
