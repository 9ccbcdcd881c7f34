import { z } from 'zod';
import { RequestAgentSchema } from './envelope';
import { ErrorCodeSchema } from './errors';
import { RawTabIdSchema, SessionIdSchema, TabHandleSchema } from './ids';
import { LabelSchema, SessionInfoSchema } from './schemas/common';

/**
 * What the browser's user sees of agents' work, pushed by the daemon over the extension's own
 * connection (no polling, no new listener): an activity feed of every action run in that browser, and
 * the state of the sessions that hold its tabs. Raw tab ids appear here because this travels on the
 * daemon↔driver wire only; agents never see it. Typed values (fill, type) are never carried.
 */

export const ActivityKindSchema = z.enum([
  /** An action an agent (or the in-browser agent) ran. */
  'action',
  /** The session paused: a CAPTCHA or login wall, or the user took over. */
  'pause',
  'resume',
  /** The session closed (its tabs closed or released). */
  'close',
]);
export type ActivityKind = z.infer<typeof ActivityKindSchema>;

export const ActivityEntrySchema = z.strictObject({
  /** Increases by one per entry the daemon records; a gap in what a client saw means entries were dropped. */
  seq: z.number().int().min(1),
  /** Epoch milliseconds. */
  at: z.number(),
  kind: ActivityKindSchema,
  session: SessionIdSchema,
  label: LabelSchema.optional(),
  tab: TabHandleSchema.nullable(),
  tabId: RawTabIdSchema.nullable(),
  action: z.string().max(64).optional(),
  /** The element acted on: its handle or selector, and its name when the daemon knows it. */
  target: z.strictObject({ ref: z.string().max(200), name: z.string().max(200).optional() }).optional(),
  /** The outcome of an action: ok, or the error's code and first line. */
  error: z.strictObject({ code: ErrorCodeSchema, message: z.string().max(300) }).optional(),
  /** How long the daemon's pacing held the action back. */
  waitedMs: z.number().int().min(0).optional(),
  /** Why the session paused. */
  reason: z.string().max(300).optional(),
  elapsedMs: z.number().int().min(0).optional(),
  /** Which kind of agent sent the action, as its client said (a label, not a proof). */
  agent: RequestAgentSchema.optional(),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

/** The daemon keeps this many entries; a client that reconnects gets what is left of them. */
export const ACTIVITY_RING_SIZE = 500;

/** A session that holds tabs in this browser, as the side panel and the tab groups show it. */
export const BrowserSessionSchema = z.strictObject({
  info: SessionInfoSchema,
  /** Its tabs in this browser: logical handle and raw id. */
  tabs: z.array(z.strictObject({ tab: TabHandleSchema, tabId: RawTabIdSchema, shared: z.boolean() })),
});
export type BrowserSession = z.infer<typeof BrowserSessionSchema>;
