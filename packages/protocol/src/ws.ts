import { z } from 'zod';
import { BproxyForwardedRequestSchema } from './envelope';
import { BproxyErrorSchema } from './errors';
import { ActivityEntrySchema, BrowserSessionSchema } from './activity';
import { RawTabIdSchema, SessionIdSchema, TabHandleSchema } from './ids';
import { PacingModeSchema, SessionInfoSchema } from './schemas/common';
import { SessionCloseResult } from './schemas/session-tab';
import { DriverDownloadMessageSchema } from './schemas/downloads';
import { PolicyViewSchema, SitePolicySchema } from './site-policy';
import {
  ApprovalDecisionSchema,
  ApprovalIdSchema,
  ApprovalsViewSchema,
  PendingApprovalSchema,
} from './approvals';
import { NavGuardMessageSchema, NavigationBlockedMessageSchema } from './nav-guard';

/** Driver → daemon. The first message on a socket must be `hello`. */
export const HelloMessageSchema = z.strictObject({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  client: z.strictObject({
    /** Stable per browser profile; the daemon matches a reconnecting driver to its tabs and pending requests by it. */
    instanceId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
    kind: z.enum(['extension', 'cdp']),
    name: z.string().min(1).max(64).optional(),
    version: z.string().max(32).optional(),
    userAgent: z.string().max(512).optional(),
    /**
     * Which run of the browser this is (the extension keeps it in session storage, which a browser
     * restart empties): a reconnect with another run means the tabs of the last one are gone.
     */
    run: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional(),
  }),
});
export const PingMessageSchema = z.strictObject({ type: z.literal('ping'), ts: z.number() });
export const NavigationMessageSchema = z.strictObject({
  type: z.literal('navigation'),
  tabId: RawTabIdSchema,
  url: z.string().max(8192),
  cause: z.enum(['committed', 'history_state']),
});
export const TabClosedMessageSchema = z.strictObject({
  type: z.literal('tab_closed'),
  tabId: RawTabIdSchema,
  /** Why, when the driver knows: `browser_gone` when the whole browser went away with the tab. */
  reason: z.enum(['closed', 'browser_gone']).optional(),
});
/**
 * A page in a driven tab opened another tab (a target=_blank link, window.open: a sign-in window, a
 * receipt): the driver drives it too, and the daemon puts it in the session of its opener. A driver
 * sends it before the answer of the action that opened the tab, so that answer can name it.
 */
export const TabOpenedMessageSchema = z.strictObject({
  type: z.literal('tab_opened'),
  tabId: RawTabIdSchema,
  openerTabId: RawTabIdSchema,
  url: z.string().max(8192),
});
export type TabOpenedMessage = z.infer<typeof TabOpenedMessageSchema>;
export const DriverResponseMessageSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    type: z.literal('response'),
    id: z.string(),
    ok: z.literal(true),
    data: z.unknown(),
    /** The console errors and failed requests the action caused, in one short line (`2 errors, POST /api/cart 422`). */
    news: z.string().min(1).max(300).optional(),
  }),
  z.strictObject({
    type: z.literal('response'),
    id: z.string(),
    ok: z.literal(false),
    error: BproxyErrorSchema,
  }),
]);
/**
 * What the user asks for through the browser's own UI (the popup, the side panel), carried by the
 * extension's authenticated connection. Agents never reach this channel: it is how the user — and only
 * the user — puts one of their open tabs into a session.
 */
export const UserRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('share_tab'),
    tabId: RawTabIdSchema,
    url: z.string().max(8192),
    title: z.string().max(1024),
  }),
  /** Resume a session paused for a human (CAPTCHA, login wall, or the user's own take-over). */
  z.strictObject({ kind: z.literal('resume'), session: SessionIdSchema }),
  /** Pause a session so the user can act undisturbed: agents get HUMAN_REQUIRED until resumed. */
  z.strictObject({ kind: z.literal('take_over'), session: SessionIdSchema }),
  /** Close a session: its tabs closed, the ones the user shared released. */
  z.strictObject({ kind: z.literal('close_session'), session: SessionIdSchema }),
  /** Pace a session: the user's choice, which agents cannot change on a tab the user shared. */
  z.strictObject({ kind: z.literal('set_pacing'), session: SessionIdSchema, pacing: PacingModeSchema }),
  /** The activity entries after `after` (the panel (re)opening), and whether some were dropped. */
  z.strictObject({ kind: z.literal('activity'), after: z.number().int().min(0) }),
  /** The site policy and what it refused lately (the Policy view). */
  z.strictObject({ kind: z.literal('policy') }),
  /** A person's new site policy, written to policy.json: the only door that writes it. */
  z.strictObject({ kind: z.literal('policy_set'), policy: SitePolicySchema }),
  /** Back to the defaults (no rule, every origin allowed), and the refusals forgotten. */
  z.strictObject({ kind: z.literal('policy_reset') }),
  /** The actions held for a person's decision (approvals). */
  z.strictObject({ kind: z.literal('approvals') }),
  /** A person's decision on one: allow once, always on this site (written to policy.json), or deny. */
  z.strictObject({
    kind: z.literal('approval_decide'),
    id: ApprovalIdSchema,
    decision: ApprovalDecisionSchema,
  }),
]);
export type UserRequest = z.infer<typeof UserRequestSchema>;
export const UserRequestMessageSchema = z.strictObject({
  type: z.literal('user_request'),
  requestId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  request: UserRequestSchema,
});
export type UserRequestMessage = z.infer<typeof UserRequestMessageSchema>;

export const DriverMessageSchema = z.union([
  HelloMessageSchema,
  PingMessageSchema,
  NavigationMessageSchema,
  TabClosedMessageSchema,
  TabOpenedMessageSchema,
  DriverDownloadMessageSchema,
  DriverResponseMessageSchema,
  UserRequestMessageSchema,
  NavigationBlockedMessageSchema,
]);
export type HelloMessage = z.infer<typeof HelloMessageSchema>;
export type NavigationMessage = z.infer<typeof NavigationMessageSchema>;
export type DriverResponseMessage = z.infer<typeof DriverResponseMessageSchema>;
export type DriverMessage = z.infer<typeof DriverMessageSchema>;

/** Daemon → driver. */
export const WelcomeMessageSchema = z.strictObject({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  clientName: z.string(),
  /**
   * How long a driven tab may go without an action before the extension takes the debugger off it
   * (its "being debugged" bar goes); the next action attaches again. Absent: kept attached.
   */
  debuggerIdleMs: z.number().int().min(100).max(604_800_000).optional(),
  /** The daemon's download cap (BPROXY_DOWNLOAD_MAX_BYTES), told to extensions: they stop larger ones. */
  downloadMaxBytes: z.number().int().min(1).optional(),
});
export const PongMessageSchema = z.strictObject({ type: z.literal('pong'), ts: z.number() });
export const RequestMessageSchema = z.strictObject({
  type: z.literal('request'),
  request: BproxyForwardedRequestSchema,
});
export const ErrorMessageSchema = z.strictObject({ type: z.literal('error'), error: BproxyErrorSchema });
/** A shared tab: the session the user put it in (new, or the one it already belonged to). */
export const SharedTabSchema = z.strictObject({
  session: SessionIdSchema,
  tab: TabHandleSchema,
  created: z.boolean(),
});
export type SharedTab = z.infer<typeof SharedTabSchema>;

/** What a user request answers, by its kind. */
export const UserResultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('share_tab'), shared: SharedTabSchema }),
  z.strictObject({ kind: z.literal('resume'), info: SessionInfoSchema }),
  z.strictObject({ kind: z.literal('take_over'), info: SessionInfoSchema }),
  z.strictObject({ kind: z.literal('close_session'), closed: SessionCloseResult }),
  z.strictObject({ kind: z.literal('set_pacing'), info: SessionInfoSchema }),
  z.strictObject({
    kind: z.literal('activity'),
    entries: z.array(ActivityEntrySchema),
    /** Entries after `after` were dropped from the ring before this answer. */
    gap: z.boolean(),
  }),
  PolicyViewSchema,
  ApprovalsViewSchema,
]);
export type UserResult = z.infer<typeof UserResultSchema>;

export const UserAnswerMessageSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    type: z.literal('user_answer'),
    requestId: z.string(),
    ok: z.literal(true),
    result: UserResultSchema,
  }),
  z.strictObject({
    type: z.literal('user_answer'),
    requestId: z.string(),
    ok: z.literal(false),
    error: BproxyErrorSchema,
  }),
]);
export type UserAnswerMessage = z.infer<typeof UserAnswerMessageSchema>;

/** The session that held a tab the user shared let go of it: the tab is the user's alone again. */
export const TabReleasedMessageSchema = z.strictObject({
  type: z.literal('tab_released'),
  tabId: RawTabIdSchema,
});
/** A new activity entry concerning this browser's tabs. */
export const ActivityMessageSchema = z.strictObject({
  type: z.literal('activity'),
  entry: ActivityEntrySchema,
});
/** The sessions holding this browser's tabs, sent whenever one of them changes (and after welcome). */
export const SessionsMessageSchema = z.strictObject({
  type: z.literal('sessions'),
  sessions: z.array(BrowserSessionSchema),
});

/**
 * The actions held for a person's decision (approvals), sent to every extension after its welcome and
 * whenever what waits changes: its side panel shows them, its toolbar badge says a decision waits.
 */
export const ApprovalsMessageSchema = z.strictObject({
  type: z.literal('approvals'),
  pending: z.array(PendingApprovalSchema).max(100),
});

export const DaemonMessageSchema = z.union([
  WelcomeMessageSchema,
  PongMessageSchema,
  RequestMessageSchema,
  ErrorMessageSchema,
  UserAnswerMessageSchema,
  TabReleasedMessageSchema,
  ActivityMessageSchema,
  SessionsMessageSchema,
  ApprovalsMessageSchema,
  NavGuardMessageSchema,
]);
export type DaemonMessage = z.infer<typeof DaemonMessageSchema>;

/** WebSocket close codes the daemon uses (4000–4999 are application-defined). */
export const WS_CLOSE = {
  protocolMismatch: 4001,
  badMessage: 4002,
  helloTimeout: 4003,
  tokenRevoked: 4004,
  shuttingDown: 4005,
  replaced: 4006,
} as const;

/** Maximum size of one WS frame from a driver (screenshots are the largest answers). */
export const WS_MAX_PAYLOAD = 16 * 1024 * 1024;
/** Drivers send an app-level ping this often; it also keeps an MV3 service worker alive. */
export const APP_PING_INTERVAL_MS = 20_000;
