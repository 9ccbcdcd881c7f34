/**
 * console, network, network.get and network.har: what the session's tab logged and fetched, read from
 * bounded buffers the driver keeps per tab (the debugger's Runtime, Log and Network events). Headers
 * that carry credentials arrive redacted unless the user's settings in BPROXY_HOME say otherwise: the
 * daemon adds `revealSecrets` to the forwarded params, and an agent cannot send it.
 */
import { z } from 'zod';
import { MAX_CHARS, OFFSET } from './common';

export const CONSOLE_LEVELS = ['error', 'warning', 'info', 'log', 'debug'] as const;
export const ConsoleLevelSchema = z.enum(CONSOLE_LEVELS);
export type ConsoleLevel = z.infer<typeof ConsoleLevelSchema>;

/** A request's id in a tab's network list: `r` and its number in that tab. */
export const NetworkRequestIdSchema = z.string().regex(/^r[1-9][0-9]{0,8}$/, 'a request id like r3');

const listShape = {
  contains: z.string().min(1).max(200).optional(),
  offset: OFFSET.optional(),
  maxChars: MAX_CHARS.optional(),
  /** Only what came after the start of the tab's latest action (click, fill, navigate, …). */
  sinceAction: z.boolean().optional(),
};

export const ConsoleParams = z.strictObject({
  /** This level and the more severe ones. */
  level: ConsoleLevelSchema.optional(),
  ...listShape,
});

/** A list of lines, capped at `maxChars` and continued from `nextOffset` (an entry index). */
const listResult = {
  url: z.string(),
  text: z.string(),
  /** Entries that match the filters. */
  total: z.number().int().min(0),
  /** Entries in `text`. */
  shown: z.number().int().min(0),
  nextOffset: z.number().int().min(0).optional(),
  /** The oldest entries the tab's bounded buffer let go of; absent when none. */
  dropped: z.number().int().min(1).optional(),
};
export const ConsoleResult = z.strictObject(listResult);

/** `4xx`, `5xx`, an exact status like `422`, or `failed` (no answer: refused, blocked, CORS). */
export const StatusFilterSchema = z
  .string()
  .regex(/^([1-5]xx|[1-5][0-9]{2}|failed)$/, '4xx, 5xx, 422, failed…');

export const NetworkParams = z.strictObject({
  status: StatusFilterSchema.optional(),
  /** The resource type: xhr, fetch, document, script, stylesheet, image, font, …. */
  type: z
    .string()
    .regex(/^[a-z]{2,20}$/)
    .optional(),
  ...listShape,
});
export const NetworkResult = z.strictObject(listResult);

export const HeaderSchema = z.strictObject({ name: z.string().max(1000), value: z.string().max(20_000) });

/** One request as a driver keeps it: what network.get answers and network.har exports. */
export const NetworkRecordSchema = z.strictObject({
  id: NetworkRequestIdSchema,
  method: z.string().max(32),
  url: z.string().max(8192),
  type: z.string().max(32),
  status: z.number().int().optional(),
  statusText: z.string().max(200).optional(),
  /** Why no answer came (net::ERR_…, the CORS or blocking reason). */
  failed: z.string().max(500).optional(),
  mimeType: z.string().max(200).optional(),
  protocol: z.string().max(32).optional(),
  /** Bytes received over the network. */
  size: z.number().int().min(0).optional(),
  startedAt: z.number(),
  durationMs: z.number().min(0).optional(),
  /** What started it: a script location, the parser, a redirect. */
  initiator: z.string().max(2000).optional(),
  requestHeaders: z.array(HeaderSchema).max(200),
  responseHeaders: z.array(HeaderSchema).max(200),
  /** Names of the headers whose values were replaced by `[redacted]`. */
  redacted: z.array(z.string().max(200)).max(200).optional(),
});
export type NetworkRecord = z.infer<typeof NetworkRecordSchema>;

export const NetworkGetParams = z.strictObject({
  request: NetworkRequestIdSchema,
  /** Also the response body (and the request's posted data). */
  body: z.boolean().optional(),
});
/** Set by the daemon from the user's settings, never by an agent. */
const revealShape = { revealSecrets: z.boolean().optional() };
export const NetworkGetForwarded = NetworkGetParams.extend(revealShape);

export const BODY_INLINE_CHARS = 4000;
export const BODY_MAX_BYTES = 4 * 1024 * 1024;

export const DriverBodySchema = z.strictObject({
  encoding: z.enum(['utf8', 'base64']),
  data: z.string().max(Math.ceil((BODY_MAX_BYTES * 4) / 3) + 4),
  /** The body's bytes as the browser holds them. */
  bytes: z.number().int().min(0),
  /** Cut at BODY_MAX_BYTES. */
  truncated: z.boolean(),
});

export const NetworkGetDriverResult = z.strictObject({
  record: NetworkRecordSchema,
  postData: z.string().max(BODY_MAX_BYTES).optional(),
  body: DriverBodySchema.optional(),
  /** Why the body could not be read (evicted by the browser, no body, still loading). */
  bodyMissing: z.string().max(500).optional(),
});
export const NetworkGetResult = z.strictObject({
  record: NetworkRecordSchema,
  postData: z.string().max(BODY_INLINE_CHARS).optional(),
  /** The body inline when it is text of at most BODY_INLINE_CHARS characters. */
  body: z.string().max(BODY_INLINE_CHARS).optional(),
  /** Otherwise the file in the session's folder that holds it (0600). */
  bodyFile: z.string().optional(),
  bodyBytes: z.number().int().min(0).optional(),
  bodyTruncated: z.literal(true).optional(),
  bodyMissing: z.string().max(500).optional(),
});

export const NetworkHarParams = z.strictObject({
  /** A file name inside the session's folder, or an absolute path inside a folder the user allowed. */
  file: z.string().min(1).max(1000),
});
export const NetworkHarForwarded = z.strictObject(revealShape);
export const NetworkHarDriverResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  records: z.array(NetworkRecordSchema).max(2000),
});
export const NetworkHarResult = z.strictObject({
  file: z.string(),
  entries: z.number().int().min(0),
  bytes: z.number().int().min(0),
});
