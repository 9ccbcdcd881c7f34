import { z } from 'zod';
import { ElementHandleSchema } from './ids';

/**
 * How an agent names an element: a daemon-minted handle (el3, ln2) or an explicit CSS selector.
 * Selectors may pierce open shadow roots and same-origin iframes with ` >>> ` between the parts.
 */
export const SelectorTargetSchema = z.strictObject({
  selector: z.string().min(1).max(2000),
});
export const TargetInputSchema = z.union([ElementHandleSchema, SelectorTargetSchema]);
export type TargetInput = z.infer<typeof TargetInputSchema>;

/**
 * What a driver receives after the daemon resolved a handle: the page-side ref recorded when the handle
 * was minted (fast path) and the selector recorded with it (fallback). Handles never reach a driver.
 */
export const ElementTargetSchema = z
  .strictObject({
    /** `r123`, or inside cross-origin frames the path to it: `r45@FRAME:r123` (see @bproxy/driver frame-refs). */
    ref: z
      .string()
      .regex(/^(r[0-9]{1,9}@[A-Za-z0-9_-]{1,64}:){0,4}r[0-9]{1,9}$/)
      .optional(),
    selector: z.string().min(1).max(4000).optional(),
  })
  .refine((t) => t.ref !== undefined || t.selector !== undefined, 'expected a ref or a selector');
export type ElementTarget = z.infer<typeof ElementTargetSchema>;
