/** Shared pieces of the action schemas: pacing modes, session and tab views, page effects, limits. */
import { z } from 'zod';
import { RawTabIdSchema, SessionIdSchema, TabHandleSchema } from '../ids';
import { ElementTargetSchema, TargetInputSchema } from '../targets';
import { DownloadSchema } from './downloads';

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
  /** The user shared this tab from the browser: its id is a capability, its pacing is theirs. */
  sharedByUser: z.literal(true).optional(),
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

/**
 * Notes about the session since its previous answer that the agent would not see otherwise (the bound
 * tab closed itself and the session went back to the tab that opened it, a page opened a tab after its
 * action had answered). Added by the daemon to the next answer of the session; drivers never send them.
 */
export const NotesShape = { notes: z.array(z.string().max(1000)).max(20).optional() };

/** A tab an action's page opened (a target=_blank link, window.open): it joined the session. */
export const OpenedTabSchema = z.strictObject({ tab: TabHandleSchema, url: z.string() });
export type OpenedTab = z.infer<typeof OpenedTabSchema>;
/** The same as a driver reports it, by raw tab id; the daemon registers it and answers the handle. */
export const DriverOpenedTabSchema = z.strictObject({ tabId: RawTabIdSchema, url: z.string().max(8192) });
export type DriverOpenedTab = z.infer<typeof DriverOpenedTabSchema>;

const effectsShape = {
  url: z.string(),
  title: z.string(),
  navigated: z.boolean(),
  dialog: z.strictObject({ type: z.string(), message: z.string() }).optional(),
};

/** Effects an action had that the agent should know about, without re-reading the page. */
export const EffectsSchema = z.strictObject({
  ...effectsShape,
  openedTabs: z.array(OpenedTabSchema).optional(),
  /** Downloads the action started (the daemon adds them; drivers never send this). */
  downloads: z.array(DownloadSchema).optional(),
});
export const DriverEffectsSchema = z.strictObject({
  ...effectsShape,
  openedTabs: z.array(DriverOpenedTabSchema).optional(),
});

/**
 * click, hover, type and press are the browser's own input (isTrusted, with user activation). When a
 * driver cannot send that input to a tab (the extension's debugger refused there) it falls back to
 * events the page script makes, and says so: `input: "synthetic"`.
 */
const inputShape = { input: z.literal('synthetic').optional() };
export const InputEffectsSchema = EffectsSchema.extend(inputShape);
export const DriverInputEffectsSchema = DriverEffectsSchema.extend(inputShape);

export const ScopeSchema = TargetInputSchema.optional();
export const ForwardedScope = ElementTargetSchema.optional();

export const LIMIT = z.number().int().min(1).max(1000);
export const MAX_CHARS = z.number().int().min(100).max(1_000_000);
export const OFFSET = z.number().int().min(0).max(100_000_000);

/**
 * Cross-origin frames a read did not include: their `src`, and why (`reason`: sandboxed, refused, not
 * scriptable, gone). Frames the driver read are in the result itself, marked with their origin.
 */
export const CrossOriginFramesSchema = z.array(
  z.strictObject({ src: z.string(), reason: z.string().max(300).optional() }),
);
