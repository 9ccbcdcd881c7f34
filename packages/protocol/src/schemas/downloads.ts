/**
 * Downloads a session's tab starts: the daemon files each one in the session's downloads folder
 * (BPROXY_HOME/tmp/<session>/downloads/<name>), names it in the answer of the action that started it,
 * lists them (`downloads`) and waits for one (`wait --download`). A download over the daemon's cap or of
 * a refused type is stopped, its partial file removed, and listed with the code that says why.
 */
import { z } from 'zod';
import { RawTabIdSchema } from '../ids';

/**
 * Where a download is: `in_progress`; `completed` (filed in the session's folder); `canceled` (by the
 * page, the browser or the user); `refused` (stopped by bproxy: `code` says why — the cap, the type, or
 * the "download" approval class asking or denying —, nothing kept).
 */
export const DownloadStateSchema = z.enum(['in_progress', 'completed', 'canceled', 'refused']);
export type DownloadState = z.infer<typeof DownloadStateSchema>;

/** One download as the agent sees it: `file` is its path in the session's downloads folder. */
export const DownloadSchema = z.strictObject({
  file: z.string(),
  bytes: z.number().int().min(0),
  url: z.string(),
  state: DownloadStateSchema,
  code: z
    .enum(['DOWNLOAD_TOO_LARGE', 'DOWNLOAD_TYPE_REFUSED', 'APPROVAL_REQUIRED', 'POLICY_DENIED'])
    .optional(),
});
export type Download = z.infer<typeof DownloadSchema>;

export const DownloadsParams = z.strictObject({});
export const DownloadsResult = z.strictObject({ downloads: z.array(DownloadSchema) });

/** `wait --download`: the first download of the session that ends after the wait began. */
export const DownloadWaitShape = { download: z.boolean().optional() };
export const DownloadWaitResultShape = { download: DownloadSchema.optional() };

/**
 * What a driver tells the daemon of a download in one of its tabs: its browser's id for it, the name the
 * page suggested, and where it is. `staged` is the file's name in the staging folder the daemon gave the
 * driver (a completed download only).
 */
export const DriverDownloadMessageSchema = z.strictObject({
  type: z.literal('download'),
  tabId: RawTabIdSchema,
  guid: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
  url: z.string().max(8192),
  name: z.string().max(1024),
  state: z.enum(['started', 'completed', 'canceled', 'too_large', 'type_refused']),
  bytes: z.number().int().min(0),
  /**
   * The extension's downloads are not staged by the daemon: Chrome writes each one under the user's
   * Downloads folder as `bproxy-downloads/<guid>/<name>`, and this is that absolute path (a finished or
   * stopped one). The daemon takes nothing from any other shape of path.
   */
  path: z.string().min(1).max(4096).optional(),
});
export type DriverDownloadMessage = z.infer<typeof DriverDownloadMessageSchema>;
