import { z } from 'zod';

/** The longest request id; ids the daemon derives for its own sub-requests stay within it too. */
export const REQUEST_ID_MAX_LENGTH = 128;
/** Request ids are chosen by the caller; they key idempotency, traces and logs. */
export const RequestIdSchema = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9_.:-]{1,${REQUEST_ID_MAX_LENGTH}}$`),
    `expected 1-${REQUEST_ID_MAX_LENGTH} characters of A-Z a-z 0-9 _ . : -`,
  )
  .brand<'RequestId'>();
export type RequestId = z.infer<typeof RequestIdSchema>;

/**
 * Daemon-generated, lowercase RFC 4648 base32, never reused: 6 characters for a session an agent
 * created (a name any holder of the daemon token may use), 26 (130 random bits) for a session the user
 * shared from the browser, whose id is the capability handed to the one agent it was shared with.
 */
export const SESSION_ID_PATTERN = /^(?:[a-z2-7]{6}|[a-z2-7]{26})$/;
/** The length of a user-shared session's id: unguessable, so only the agent it was handed to has it. */
export const SHARED_SESSION_ID_LENGTH = 26;
export const SessionIdSchema = z
  .string()
  .regex(SESSION_ID_PATTERN, 'expected a session id like m4q7z2')
  .brand<'SessionId'>();
export type SessionId = z.infer<typeof SessionIdSchema>;

/** Logical, session-scoped tab handle: t1, t2, … Raw browser tab ids never leave the daemon. */
export const TAB_HANDLE_PATTERN = /^t[1-9][0-9]{0,6}$/;
export const TabHandleSchema = z
  .string()
  .regex(TAB_HANDLE_PATTERN, 'expected a tab handle like t1')
  .brand<'TabHandle'>();
export type TabHandle = z.infer<typeof TabHandleSchema>;

/** Short-lived element aliases minted by the daemon: el1 (elements, snapshot) and ln1 (links, snapshot). */
export const ELEMENT_HANDLE_PATTERN = /^(el|ln)[1-9][0-9]{0,6}$/;
export const ElementHandleSchema = z
  .string()
  .regex(ELEMENT_HANDLE_PATTERN, 'expected an element handle like el3 or ln2')
  .brand<'ElementHandle'>();
export type ElementHandle = z.infer<typeof ElementHandleSchema>;
export type ElementHandlePrefix = 'el' | 'ln';

/** Raw browser tab id: only on the daemon↔driver wire. */
export const RawTabIdSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
