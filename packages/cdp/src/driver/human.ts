/**
 * Human-required detection, as the extension does it: the page bundle's detectHuman after a
 * navigation; a page that needs a person fails the action with HUMAN_REQUIRED and the reason, and the
 * daemon pauses the session.
 */
import { fail, humanReasonOf } from '@bproxy/driver';
import { runPage } from './page-runner';
import type { PageTab } from './page-tab';

export async function failIfHuman(tab: PageTab, timeoutMs: number): Promise<void> {
  const data = await runPage(tab, 'detectHuman', {}, { timeoutMs, retryOnNavigation: true });
  const reason = humanReasonOf(data);
  if (reason !== null) fail('HUMAN_REQUIRED', reason, { reason });
}
