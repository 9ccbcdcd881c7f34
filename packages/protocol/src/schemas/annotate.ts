/**
 * Screenshots for vision models: `maxWidth` (scaled down to at most that many pixels wide) and
 * `annotate` (every actionable element in view outlined and labelled with its live handle, the same
 * handle a snapshot gives it; the answer lists them with their boxes in image pixels). The daemon
 * mints the handles and hands the driver `labels` (ref → handle); the driver draws them over the page
 * only while it captures.
 */
import { z } from 'zod';
import { ElementHandleSchema } from '../ids';
import { HANDLES_PER_READ } from '../snapshot-refs';

export const MAX_WIDTH = z.number().int().min(100).max(10_000);

const BoxShape = { x: z.number(), y: z.number(), width: z.number(), height: z.number() };

/** What the daemon asks a driver to draw: each element's page ref and its handle. */
export const ScreenshotLabelsSchema = z
  .array(z.strictObject({ ref: z.string().regex(/^r[0-9]{1,9}$/), label: z.string().min(1).max(16) }))
  .max(2 * HANDLES_PER_READ);

/** The labels a driver drew, by ref, with the element's name and its box in image pixels. */
export const DriverAnnotationsSchema = z
  .array(z.strictObject({ ref: z.string(), name: z.string(), ...BoxShape }))
  .max(2 * HANDLES_PER_READ);

/** The labels in the answer, by handle. */
export const AnnotationsSchema = z
  .array(z.strictObject({ handle: ElementHandleSchema, name: z.string(), ...BoxShape }))
  .max(2 * HANDLES_PER_READ);
