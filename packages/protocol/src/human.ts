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

/** Why a session the user took over in the browser is paused, as agents read it (`pauseReason`). */
export const TAKE_OVER_REASON = 'the user took over this session in the browser; wait until they resume it';
/**
 * The hint of a HUMAN_REQUIRED refusal on a session the user took over: `session resume` is refused
 * there (it is theirs until they press Resume), so the catalogue's hint would send the agent wrong.
 */
export const TAKE_OVER_HINT =
  'The user is working in this tab: wait and try again later; only they can resume it, in the browser';

/**
 * The hint of SESSION_NOT_FOUND for an id of a tab the user shared (26 characters): creating a session
 * would not reach the user's tab, as the catalogue's hint suggests; the user's side panel shares the
 * tab again by itself after a daemon restart, under a new id only they can hand over.
 */
export const SHARED_SESSION_GONE_HINT =
  'This was a tab the user shared: ask them for its new session id (the side panel shares it again after a restart); a session you create cannot reach their tab';
