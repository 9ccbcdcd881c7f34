import { z } from 'zod';

/**
 * Human-required detection across the wire. A driver that refuses an action with HUMAN_REQUIRED puts
 * what it found in the error's `details` (HumanDetection); the daemon pauses the session. When a person
 * resumes it, the daemon waives those kinds of check for that document at that URL (HumanWaiver) and
 * forwards the waiver with every later request on the tab, so the resume holds until the tab navigates
 * or another kind of check fires. The page script mints the document id; a new document never matches.
 */
export const HumanKindSchema = z.enum(['captcha', 'challenge', 'login']);
export type HumanKind = z.infer<typeof HumanKindSchema>;

const DocumentIdSchema = z.string().regex(/^[0-9a-f]{16}$/);

export const HumanDetectionSchema = z.strictObject({
  kind: HumanKindSchema,
  document: DocumentIdSchema,
  url: z.string().max(8192),
});
export type HumanDetection = z.infer<typeof HumanDetectionSchema>;

export const HumanWaiverSchema = z.strictObject({
  document: DocumentIdSchema,
  url: z.string().max(8192),
  kinds: z.array(HumanKindSchema).min(1).max(3),
});
export type HumanWaiver = z.infer<typeof HumanWaiverSchema>;
