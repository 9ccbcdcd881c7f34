/**
 * Screenshots of the extension's pages for the docs, taken by the e2e tests that already bring a view
 * into a realistic state. Written only when BPROXY_SCREENSHOTS is set (`npm run screenshots`), so an
 * ordinary test run leaves the tree as it was.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './paths';

/** The width Chrome gives a side panel by default, and a laptop screen's height. */
export const PANEL_SIZE = { width: 400, height: 800 };

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.BPROXY_SCREENSHOTS) return;
  const dir = join(ROOT, 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}
