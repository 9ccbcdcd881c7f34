/**
 * Reading the page bundle's detectHuman answer, as the extension does: a page that needs a person
 * fails the action with HUMAN_REQUIRED, the reason, and what was found (kind, document, URL) in the
 * details; the daemon pauses the session.
 */
import { HumanDetectionSchema } from '@bproxy/protocol';
import type { DetectHumanResult } from '@bproxy/page';
import { fail } from './failure';

/** Reads the page's DetectHumanResult; anything but `required: true` means no human is needed. */
export function humanReason(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const d = data as Partial<Record<keyof DetectHumanResult, unknown>>;
  if (d.required !== true) return undefined;
  return typeof d.reason === 'string' && d.reason !== '' ? d.reason : 'the page needs a human';
}

/** Fails with HUMAN_REQUIRED when `data` (a detectHuman answer) says a person is needed. */
export function failOnHuman(data: unknown): void {
  const reason = humanReason(data);
  if (reason === undefined) return;
  const { kind, document, url } = data as Partial<Record<keyof DetectHumanResult, unknown>>;
  const found = HumanDetectionSchema.safeParse({ kind, document, url });
  fail('HUMAN_REQUIRED', reason, { reason, ...(found.success ? { details: found.data } : {}) });
}
