/**
 * Human-required detection after a navigation, as the extension does it: the page bundle's
 * detectHuman on the new page (nothing waived: it is a new document); a page that needs a person fails
 * the action with HUMAN_REQUIRED, the reason and what was found, and the daemon pauses the session.
 */
import { failOnHuman } from '@bproxy/driver';
import { runPage } from './page-runner';
import type { PageTab } from './page-tab';

export async function failIfHuman(tab: PageTab, timeoutMs: number): Promise<void> {
  failOnHuman(await runPage(tab, 'detectHuman', {}, { timeoutMs, retryOnNavigation: true }));
}
