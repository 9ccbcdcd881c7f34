/**
 * Human-required detection, as the extension does it: the page bundle's detectHuman after a
 * navigation; a page that needs a person fails the action with HUMAN_REQUIRED and the reason, and the
 * daemon pauses the session.
 */
import type { DetectHumanResult } from '@bproxy/page';
import { fail } from './failure';
import { runPage } from './page-runner';
import type { PageTab } from './page-tab';

/** Reads the page's DetectHumanResult; anything but `required: true` means no human is needed. */
export function humanReason(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const d = data as Partial<Record<keyof DetectHumanResult, unknown>>;
  if (d.required !== true) return undefined;
  return typeof d.reason === 'string' && d.reason !== '' ? d.reason : 'the page needs a human';
}

export async function failIfHuman(tab: PageTab, timeoutMs: number): Promise<void> {
  const data = await runPage(tab, 'detectHuman', {}, { timeoutMs, retryOnNavigation: true });
  const reason = humanReason(data);
  if (reason !== undefined) fail('HUMAN_REQUIRED', reason, { reason });
}
