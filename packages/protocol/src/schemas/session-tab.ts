/** Navigation, tab and session actions. */
import { z } from 'zod';
import { SessionIdSchema, TabHandleSchema } from '../ids';
import {
  BrowserNameSchema,
  LabelSchema,
  PacingModeSchema,
  PageStateSchema,
  SessionInfoSchema,
  Url,
} from './common';

// --- navigation ----------------------------------------------------------------------------------------

export const NavigateParams = z.strictObject({
  url: Url,
  waitUntil: z.enum(['load', 'domcontentloaded', 'none']).optional(),
});
/** Where navigate landed; `openedTab` when the session had no current tab and navigate opened one. */
export const NavigateResult = PageStateSchema.extend({ openedTab: TabHandleSchema.optional() });
export const HistoryParams = z.strictObject({
  waitUntil: z.enum(['load', 'domcontentloaded', 'none']).optional(),
});

// --- tabs ---------------------------------------------------------------------------------------------

export const TabOpenParams = z.strictObject({
  url: Url.optional(),
  browser: BrowserNameSchema.optional(),
  active: z.boolean().optional(),
});
export const TabOpenForwarded = z.strictObject({ url: z.string(), active: z.boolean().optional() });
export const TabParams = z.strictObject({ tab: TabHandleSchema.optional() });
export const TabCloseResult = z.strictObject({ tab: TabHandleSchema, closed: z.literal(true) });

// --- sessions -----------------------------------------------------------------------------------------

export const SessionCreateParams = z.strictObject({
  label: LabelSchema.optional(),
  pacing: PacingModeSchema.optional(),
  /** Open the session's tabs in this browser when tab.open names none (and when navigate opens one). */
  browser: BrowserNameSchema.optional(),
});
export const SessionCreateResult = SessionInfoSchema.extend({ tmpDir: z.string() });
export const SessionBindParams = z
  .strictObject({ tab: TabHandleSchema.optional(), pacing: PacingModeSchema.optional() })
  .refine((p) => p.tab !== undefined || p.pacing !== undefined, 'give a tab, a pacing mode, or both');
export const SessionCloseResult = z.strictObject({
  session: SessionIdSchema,
  /** Closed in their browser. */
  closedTabs: z.array(TabHandleSchema),
  /** Only forgotten: their browser was disconnected or did not close them. */
  forgottenTabs: z.array(TabHandleSchema),
  /** Tabs the user shared into the session: released, left open in the user's browser. */
  releasedTabs: z.array(TabHandleSchema),
});
