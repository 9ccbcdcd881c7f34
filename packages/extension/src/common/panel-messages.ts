/**
 * The side panel's port to the service worker (chrome.runtime.connect, name `panel`). The worker holds
 * the daemon connection and the native host port; a panel asks through it and hears what concerns it:
 * the sessions holding this browser's tabs, the activity feed, and the host's chat and terminal
 * streams. Both ends validate every message against these schemas.
 */
import {
  ActivityEntrySchema,
  ApprovalDecisionSchema,
  ApprovalIdSchema,
  BrowserSessionSchema,
  ChatIdSchema,
  ExtensionToHostSchema,
  HostToExtensionSchema,
  PacingModeSchema,
  SessionIdSchema,
  PendingApprovalSchema,
  SitePolicySchema,
  UserResultSchema,
} from '@bproxy/protocol';
import { z } from 'zod';

export const PANEL_PORT = 'panel';

const RequestId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** What the panel may ask the daemon for, on the user's behalf (raw tab ids are the worker's to add). */
export const PanelUserRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('share_tab'), tabId: z.number().int().min(0) }),
  z.strictObject({ kind: z.literal('resume'), session: SessionIdSchema }),
  z.strictObject({ kind: z.literal('take_over'), session: SessionIdSchema }),
  z.strictObject({ kind: z.literal('close_session'), session: SessionIdSchema }),
  z.strictObject({ kind: z.literal('set_pacing'), session: SessionIdSchema, pacing: PacingModeSchema }),
  /** The Policy view: read the site policy, replace it or reset it (a person's clicks, never an agent's). */
  z.strictObject({ kind: z.literal('policy') }),
  z.strictObject({ kind: z.literal('policy_set'), policy: SitePolicySchema }),
  z.strictObject({ kind: z.literal('policy_reset') }),
  /** Approvals: what waits for a person, and their decision on one (a click in the panel). */
  z.strictObject({ kind: z.literal('approvals') }),
  z.strictObject({
    kind: z.literal('approval_decide'),
    id: ApprovalIdSchema,
    decision: ApprovalDecisionSchema,
  }),
]);
export type PanelUserRequest = z.infer<typeof PanelUserRequestSchema>;

export const PanelToWorkerSchema = z.discriminatedUnion('type', [
  /** The activity entries after `after` (0: all the daemon kept). */
  z.strictObject({ type: z.literal('replay'), after: z.number().int().min(0) }),
  z.strictObject({ type: z.literal('user'), requestId: RequestId, request: PanelUserRequestSchema }),
  /** Bring a tab to the front (an activity entry was clicked). */
  z.strictObject({ type: z.literal('focus'), tabId: z.number().int().min(0) }),
  /** The chats this panel shows: their streams from the host come to it (and to no other panel). */
  z.strictObject({ type: z.literal('chat.watch'), chatIds: z.array(ChatIdSchema).max(100) }),
  /** A message for the native host (chat, settings, terminal). */
  z.strictObject({ type: z.literal('host'), message: ExtensionToHostSchema }),
  /** The user's Start bproxy: the native host starts the daemon, the link connects to it. */
  z.strictObject({ type: z.literal('start_daemon') }),
]);
export type PanelToWorker = z.infer<typeof PanelToWorkerSchema>;

export const PanelAnswerSchema = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), result: UserResultSchema }),
  z.strictObject({ ok: z.literal(false), reason: z.string() }),
]);
export type PanelAnswer = z.infer<typeof PanelAnswerSchema>;

export const WorkerToPanelSchema = z.discriminatedUnion('type', [
  /** Whether the daemon and the native host are there (the panel says what is missing). */
  z.strictObject({
    type: z.literal('status'),
    daemon: z.enum(['connected', 'connecting', 'unpaired', 'down']),
    host: z.enum(['connected', 'missing', 'unavailable']),
    /**
     * Why a part stopped and what fixes it, when retrying cannot help: the daemon connection's stop
     * reason (a version mismatch names the older part), or the native host's failure.
     */
    problem: z.string().max(2000).optional(),
    /** The CLI launcher the native host wrote (absolute path): the panel's command line uses it. */
    cli: z.string().max(4096).optional(),
  }),
  z.strictObject({
    type: z.literal('sessions'),
    sessions: z.array(BrowserSessionSchema),
    /** Tabs the user shared whose session the daemon lost (it restarted): "session lost — Share again". */
    lost: z.array(z.number().int().min(0)).max(1000).optional(),
  }),
  z.strictObject({ type: z.literal('activity'), entry: ActivityEntrySchema }),
  /** What waits for a person's decision now (approvals): sent on connect and whenever it changes. */
  z.strictObject({ type: z.literal('approvals'), pending: z.array(PendingApprovalSchema).max(100) }),
  z.strictObject({ type: z.literal('replay'), entries: z.array(ActivityEntrySchema), gap: z.boolean() }),
  z.strictObject({ type: z.literal('answer'), requestId: z.string(), answer: PanelAnswerSchema }),
  z.strictObject({ type: z.literal('host'), message: HostToExtensionSchema }),
  /** How the user's Start bproxy went (to the panel that asked). */
  z.strictObject({
    type: z.literal('daemon_start'),
    ok: z.boolean(),
    reason: z.string().max(2000).optional(),
  }),
]);
export type WorkerToPanel = z.infer<typeof WorkerToPanelSchema>;
