/** Read actions: text, links, elements, inspect, snapshot, screenshot. */
import { z } from 'zod';
import { SensitiveTargetSchema } from '../approvals';
import { ElementHandleSchema } from '../ids';
import { TargetInputSchema } from '../targets';
import { ScopeSchema, ForwardedScope, LIMIT, MAX_CHARS, OFFSET, CrossOriginFramesSchema } from './common';
import { AnnotationsSchema, DriverAnnotationsSchema, MAX_WIDTH, ScreenshotLabelsSchema } from './annotate';
import { DiffParamShape, SnapshotDiffKindSchema } from './diff';
import { LONG_TEXT_MAX, LONG_TEXT_RUNS } from '../snapshot-refs';

// --- reads -------------------------------------------------------------------------------------------

export const TextParams = z.strictObject({
  target: ScopeSchema,
  maxChars: MAX_CHARS.optional(),
  offset: OFFSET.optional(),
});
export const TextResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  text: z.string(),
  totalChars: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().optional(),
  /** Runs of text left out because a person could not see them (off the page, clipped, tiny, transparent, covered); absent when none. */
  hiddenBlocks: z.number().int().min(1).optional(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});

/** The origin of the cross-origin frame an element or link lies in; absent for the page's own. */
const FrameField = { frame: z.string().optional() };

export const LinkFields = {
  text: z.string(),
  href: z.string(),
  ...FrameField,
};
export const LinksParams = z.strictObject({
  target: ScopeSchema,
  limit: LIMIT.optional(),
  contains: z.string().max(200).optional(),
});
export const DriverLink = z.strictObject({ ref: z.string(), selector: z.string(), ...LinkFields });
export const LinksDriverResult = z.strictObject({
  url: z.string(),
  links: z.array(DriverLink),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});
export const LinksResult = z.strictObject({
  url: z.string(),
  links: z.array(z.strictObject({ handle: ElementHandleSchema, ...LinkFields })),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});

export const ElementFields = {
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  type: z.string().optional(),
  value: z.string().optional(),
  checked: z.boolean().optional(),
  disabled: z.boolean().optional(),
  href: z.string().optional(),
  options: z.array(z.string()).optional(),
  ...FrameField,
};
export const ElementsParams = z.strictObject({
  target: ScopeSchema,
  limit: LIMIT.optional(),
  contains: z.string().max(200).optional(),
  role: z.string().max(50).optional(),
});
export const DriverElement = z.strictObject({ ref: z.string(), selector: z.string(), ...ElementFields });
export const ElementsDriverResult = z.strictObject({
  url: z.string(),
  elements: z.array(DriverElement),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});
export const ElementsResult = z.strictObject({
  url: z.string(),
  elements: z.array(z.strictObject({ handle: ElementHandleSchema, ...ElementFields })),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});

export const InspectParams = z.strictObject({ target: TargetInputSchema });
export const InspectResult = z.strictObject({
  tag: z.string(),
  role: z.string(),
  name: z.string(),
  text: z.string(),
  attributes: z.record(z.string(), z.string()),
  box: z.strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  visible: z.boolean(),
  enabled: z.boolean(),
  inViewport: z.boolean(),
  value: z.string().optional(),
  checked: z.boolean().optional(),
  /** Only when the daemon asked (`approval`, its own param): the approvals' recognition. */
  sensitive: SensitiveTargetSchema.optional(),
});

export const SnapshotParams = z.strictObject({
  target: ScopeSchema,
  maxChars: MAX_CHARS.optional(),
  offset: OFFSET.optional(),
  contains: z.string().max(200).optional(),
  ...DiffParamShape,
});
export const SnapshotDriverResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  snapshot: z.string(),
  refs: z.array(z.strictObject({ ref: z.string(), selector: z.string(), kind: z.enum(['el', 'ln']) })),
  totalChars: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().optional(),
  notice: z.string().optional(),
  /** Runs of text left out because a person could not see them (off the page, clipped, tiny, transparent, covered); absent when none. */
  hiddenBlocks: z.number().int().min(1).optional(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
  /** With `diff`: the long text runs the outline left out (see LONG_TEXT_RUNS). */
  longText: z.array(z.string().max(LONG_TEXT_MAX)).max(LONG_TEXT_RUNS).optional(),
});
export const SnapshotResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  snapshot: z.string(),
  totalChars: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().optional(),
  notice: z.string().optional(),
  /** Runs of text left out because a person could not see them (off the page, clipped, tiny, transparent, covered); absent when none. */
  hiddenBlocks: z.number().int().min(1).optional(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
  /** With `diff`: whether `snapshot` holds the whole outline (first, navigated) or only the changed lines. */
  diff: SnapshotDiffKindSchema.optional(),
});

export const ScreenshotParams = z
  .strictObject({
    target: ScopeSchema,
    fullPage: z.boolean().optional(),
    format: z.enum(['png', 'jpeg']).optional(),
    quality: z.number().int().min(1).max(100).optional(),
    maxWidth: MAX_WIDTH.optional(),
    annotate: z.boolean().optional(),
  })
  .refine(
    (p) => p.annotate !== true || (p.target === undefined && p.fullPage !== true),
    'annotate labels the viewport: give neither target nor fullPage with it',
  );
/** What a driver gets: the daemon turned `annotate` into the labels to draw. */
export const ForwardedScreenshotParams = z.strictObject({
  target: ForwardedScope,
  fullPage: z.boolean().optional(),
  format: z.enum(['png', 'jpeg']).optional(),
  quality: z.number().int().min(1).max(100).optional(),
  maxWidth: MAX_WIDTH.optional(),
  labels: ScreenshotLabelsSchema.optional(),
});
const imageShape = {
  mimeType: z.enum(['image/png', 'image/jpeg']),
  data: z.string(),
  width: z.number().int(),
  height: z.number().int(),
};
export const ScreenshotDriverResult = z.strictObject({
  ...imageShape,
  annotations: DriverAnnotationsSchema.optional(),
});
export const ScreenshotResult = z.strictObject({
  ...imageShape,
  /** With `annotate`: the elements labelled, by handle, with their boxes in image pixels. */
  annotations: AnnotationsSchema.optional(),
});
