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

/** Paper sizes pdf knows, in inches (width × height, portrait). */
export const PAPER_SIZES = {
  letter: [8.5, 11],
  legal: [8.5, 14],
  tabloid: [11, 17],
  a3: [11.69, 16.54],
  a4: [8.27, 11.69],
  a5: [5.83, 8.27],
} as const;
export type PaperSize = keyof typeof PAPER_SIZES;
const PaperSchema = z.enum(['letter', 'legal', 'tabloid', 'a3', 'a4', 'a5']);

const PdfLayout = {
  paper: PaperSchema.optional(),
  landscape: z.boolean().optional(),
  /** Print background colours and images (off by default, as a browser prints). */
  background: z.boolean().optional(),
};

export const PdfParams = z.strictObject({
  /** Where to write it (absolute, or relative to the session's folder; inside an allowed folder). */
  out: FilePath.optional(),
  ...PdfLayout,
});
export const PdfForwarded = z.strictObject(PdfLayout);
/** The driver's answer: the PDF, base64. */
export const PdfDriverResult = z.strictObject({ data: z.string().min(1) });
export const PdfResult = z.strictObject({ file: z.string(), bytes: z.number().int().min(0) });
