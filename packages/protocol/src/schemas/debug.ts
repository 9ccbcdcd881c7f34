/** Debug actions: traces, status, the driver log. */
import { z } from 'zod';
import { SessionIdSchema } from '../ids';
import { PAIRING_CODE_KINDS, PAIRING_CODE_PATTERN, PAIRING_DIRECT_CODE_PATTERN } from '../pairing/pairing';
import { SessionInfoSchema } from './common';

// --- debug --------------------------------------------------------------------------------------------

/** One answered request. Requests refused at parse time are traced too, with what could be read of them. */
export const TraceSchema = z.strictObject({
  /** Null when the refused body carried no valid request id. */
  id: z.string().nullable(),
  /** Null when the refused body named no action. */
  action: z.string().nullable(),
  session: z.string().optional(),
  receivedAt: z.number(),
  elapsedMs: z.number(),
  ok: z.boolean(),
  errorCode: z.string().optional(),
  /** The answer was recorded earlier and given again to a repeated request id. */
  replayed: z.literal(true).optional(),
});
export type Trace = z.infer<typeof TraceSchema>;
export const DebugLastParams = z.strictObject({ limit: z.number().int().min(1).max(200).optional() });
export const DebugLastResult = z.strictObject({ traces: z.array(TraceSchema) });
export const ClientInfoSchema = z.strictObject({
  name: z.string(),
  kind: z.string(),
  connected: z.boolean(),
  connectedAt: z.number(),
  tabs: z.number().int(),
  version: z.string().optional(),
  /** A remote browser of one session only (a farm's browser, --cdp-mode per-session). */
  session: SessionIdSchema.optional(),
  /** A browser the daemon opened, with no tab open: how long until it is closed. */
  closesInMs: z.number().int().optional(),
});
/** What keeps the daemon and its browsers running (see the README, "What keeps bproxy running"). */
export const LifetimeSchema = z.strictObject({
  /** Started for a client (`bproxy mcp`) rather than by `bproxy service start`: it stops when idle. */
  implicit: z.boolean(),
  /** How long an implicit daemon waits without agent requests before it stops; null: never. */
  idleExitMs: z.number().int().nullable(),
  /** Time left before it stops; null while a request is in flight, or when it never stops by itself. */
  exitInMs: z.number().int().nullable(),
  /** How long a browser the daemon opened may sit without a tab before it is closed; null: never. */
  browserIdleMs: z.number().int().nullable(),
});
/** --cdp-mode per-session: the remote browsers open now, and the cap. */
export const RemoteBrowsersSchema = z.strictObject({
  open: z.number().int(),
  max: z.number().int(),
});
export const DebugStatusResult = z.strictObject({
  version: z.string(),
  protocolVersion: z.number().int(),
  pid: z.number().int(),
  port: z.number().int(),
  uptimeMs: z.number(),
  clients: z.array(ClientInfoSchema),
  sessions: z.array(SessionInfoSchema),
  pending: z.number().int(),
  handles: z.number().int(),
  paired: z.boolean(),
  lifetime: LifetimeSchema,
  remoteBrowsers: RemoteBrowsersSchema.optional(),
});
export const DebugLogParams = z.strictObject({ limit: z.number().int().min(1).max(500).optional() });
export const DebugLogResult = z.strictObject({ entries: z.array(z.record(z.string(), z.unknown())) });

// --- pairing ------------------------------------------------------------------------------------------

/**
 * `typed` (default): a code a person types in the popup (ABCD-EFGH), held by the failed-claim throttle.
 * `direct`: 32 random bytes for the native host to pass to the extension, never throttled.
 */
export const PairingIssueParams = z.strictObject({ kind: z.enum(PAIRING_CODE_KINDS).optional() });
/** A fresh one-time code for POST /pair/claim; issuing it retires the previous one. */
export const PairingIssueResult = z.strictObject({
  code: z.union([z.string().regex(PAIRING_CODE_PATTERN), z.string().regex(PAIRING_DIRECT_CODE_PATTERN)]),
  expiresAt: z.number(),
  /** The port to claim it on. */
  port: z.number().int().min(1).max(65535),
});
