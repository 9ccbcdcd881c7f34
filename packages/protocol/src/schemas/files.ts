/** The files group: upload (the files an agent may hand a page are checked by the daemon first). */
import { z } from 'zod';
import { ElementTargetSchema, TargetInputSchema } from '../targets';
import { DriverEffectsSchema, EffectsSchema } from './common';

/** Most files one upload sets. */
export const UPLOAD_MAX_FILES = 20;

/**
 * A file path as an agent gives it: absolute, or relative to the session's folder. The daemon resolves
 * it and checks it against the allowed folders before anything is read; drivers never see this form.
 */
const FilePath = z.string().min(1).max(4096);

export const UploadParams = z.strictObject({
  target: TargetInputSchema,
  files: z.array(FilePath).min(1).max(UPLOAD_MAX_FILES),
});

/** What a driver receives: the real paths the daemon checked, with each file's name and type. */
export const UploadForwarded = z.strictObject({
  target: ElementTargetSchema,
  files: z
    .array(z.strictObject({ path: FilePath, name: z.string().min(1).max(255), type: z.string().max(255) }))
    .min(1)
    .max(UPLOAD_MAX_FILES),
});

/** One file set on the input, as the agent sees it. */
export const UploadedFileSchema = z.strictObject({ file: z.string(), bytes: z.number().int().min(0) });

export const UploadResult = EffectsSchema.extend({ files: z.array(UploadedFileSchema) });
export const UploadDriverResult = DriverEffectsSchema;

/**
 * files.json in BPROXY_HOME, a setting a person edits: folders (absolute paths) whose files agents may
 * upload, besides each session's own folder. Read by the daemon at start, with the checks of every
 * state file.
 */
export const FilesConfigSchema = z.strictObject({
  allow: z.array(z.string().min(1).max(4096)).max(64),
});
export type FilesConfig = z.infer<typeof FilesConfigSchema>;
