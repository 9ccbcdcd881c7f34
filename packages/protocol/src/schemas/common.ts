/** Shared pieces of the action schemas: pacing modes, session and tab views, page effects, limits. */
import { z } from 'zod';
import { RawTabIdSchema, SessionIdSchema, TabHandleSchema } from '../ids';
import { ElementTargetSchema, TargetInputSchema } from '../targets';

export const PacingModeSchema = z.enum(['human', 'fast']);
export type PacingMode = z.infer<typeof PacingModeSchema>;

export const Empty = z.strictObject({});
export const Url = z.string().min(1).max(8192);
export const LabelSchema = z.string().min(1).max(64);
/** A connected browser's name, as `debug.status` lists them (chrome, headless, …). */
export const BrowserNameSchema = z.string().min(1).max(64);

export const SessionInfoSchema = z.strictObject({
  session: SessionIdSchema,
  label: LabelSchema.optional(),
  state: z.enum(['created', 'bound', 'paused']),
  tab: TabHandleSchema.nullable(),
  tabs: z.array(TabHandleSchema),
  pacing: PacingModeSchema,
  paused: z.boolean(),
  pauseReason: z.string().optional(),
  /** The browser this session opens its tabs in when none is named. */
  browser: BrowserNameSchema.optional(),
  createdAt: z.number(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const TabInfoSchema = z.strictObject({
  tab: TabHandleSchema,
  session: SessionIdSchema,
  url: z.string(),
  title: z.string(),
  pinned: z.boolean(),
  bound: z.boolean(),
  browser: z.string(),
});
export type TabInfo = z.infer<typeof TabInfoSchema>;

/** What a driver reports about a raw tab; the daemon maps it to a TabInfo. */
export const DriverTabSchema = z.strictObject({
  tabId: RawTabIdSchema,
  url: z.string(),
  title: z.string(),
  pinned: z.boolean().optional(),
});

export const PageStateSchema = z.strictObject({ url: z.string(), title: z.string() });

/** Effects an action had that the agent should know about, without re-reading the page. */
export const EffectsSchema = z.strictObject({
  url: z.string(),
  title: z.string(),
  navigated: z.boolean(),
  dialog: z.strictObject({ type: z.string(), message: z.string() }).optional(),
});

export const ScopeSchema = TargetInputSchema.optional();
export const ForwardedScope = ElementTargetSchema.optional();

export const LIMIT = z.number().int().min(1).max(1000);
export const MAX_CHARS = z.number().int().min(100).max(1_000_000);
export const OFFSET = z.number().int().min(0).max(100_000_000);

export const CrossOriginFramesSchema = z.array(z.strictObject({ src: z.string() }));
