/**
 * drag (an element onto another, or to a point in it: a trusted pointer gesture that drives pointer
 * sortables and HTML5 drag and drop alike) and drop (files dropped onto a drop zone, checked by the
 * daemon against the allowed folders like upload's).
 */
import { z } from 'zod';
import { ElementTargetSchema, TargetInputSchema } from '../targets';
import { DriverEffectsSchema, EffectsSchema } from './common';
import { DiffParamShape } from './diff';
import { UPLOAD_MAX_FILES, UploadedFileSchema } from './files';

/** A point in an element, in CSS pixels from its top-left corner (its centre when absent). */
const AtSchema = z
  .strictObject({ x: z.number().min(0).max(100_000), y: z.number().min(0).max(100_000) })
  .describe('Drop point, px from its top-left (default: centre)');

export const DragParams = z.strictObject({
  target: TargetInputSchema,
  to: TargetInputSchema,
  at: AtSchema.optional(),
  ...DiffParamShape,
});
export const DragForwarded = z.strictObject({
  target: ElementTargetSchema,
  to: ElementTargetSchema,
  at: AtSchema.optional(),
});

const FilePath = z.string().min(1).max(4096);

export const DropParams = z.strictObject({
  target: TargetInputSchema,
  files: z.array(FilePath).min(1).max(UPLOAD_MAX_FILES),
  at: AtSchema.optional(),
});
/** What a driver receives: the real paths the daemon checked. */
export const DropForwarded = z.strictObject({
  target: ElementTargetSchema,
  files: z
    .array(z.strictObject({ path: FilePath, name: z.string().min(1).max(255), type: z.string().max(255) }))
    .min(1)
    .max(UPLOAD_MAX_FILES),
  at: AtSchema.optional(),
});
export const DropResult = EffectsSchema.extend({ files: z.array(UploadedFileSchema) });
export const DropDriverResult = DriverEffectsSchema;
