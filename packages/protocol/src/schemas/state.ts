/**
 * Logins that persist and emulation: state.save/state.load (Playwright's storage-state format: the
 * cookies and each origin's localStorage), cookies list/set/clear for the current origin, and emulate.
 */
import { z } from 'zod';
import { DEVICE_NAMES } from '../devices';

// --- storage state (Playwright's format) ----------------------------------------------------------------

export const MAX_STATE_COOKIES = 3000;
export const MAX_STATE_ORIGINS = 200;
/** The largest state file the daemon reads or writes. */
export const MAX_STATE_FILE_BYTES = 8 * 1024 * 1024;

const CookieName = z.string().min(1).max(4096);
const CookieValue = z.string().max(4096);
export const SameSiteSchema = z.enum(['Strict', 'Lax', 'None']);

/** One cookie as Playwright writes it: `expires` in seconds since the epoch, -1 for a session cookie. */
export const StateCookieSchema = z.object({
  name: CookieName,
  value: CookieValue,
  domain: z.string().min(1).max(255),
  path: z.string().min(1).max(1024),
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: SameSiteSchema,
});
export type StateCookie = z.infer<typeof StateCookieSchema>;

export const StateOriginSchema = z.object({
  origin: z.string().regex(/^https?:\/\/[^/\s]+$/, 'an http(s) origin, no path'),
  localStorage: z
    .array(z.object({ name: z.string().max(4096), value: z.string().max(1_000_000) }))
    .max(10_000),
});

/** A storage-state document; unknown fields (Playwright may add some) are dropped, not refused. */
export const StorageStateSchema = z.object({
  cookies: z.array(StateCookieSchema).max(MAX_STATE_COOKIES),
  origins: z.array(StateOriginSchema).max(MAX_STATE_ORIGINS),
});
export type StorageState = z.infer<typeof StorageStateSchema>;

/** A file to read or write: a name in the state folder, or an absolute path in a folder the user allowed. */
export const StatePathSchema = z.string().min(1).max(4096);

export const StateFileParams = z.strictObject({ path: StatePathSchema });
export const StateLoadForwarded = z.strictObject({ state: StorageStateSchema });
export const StateSaveResult = z.strictObject({
  path: z.string(),
  cookies: z.number().int(),
  origins: z.number().int(),
});
/** What loading did; `kept` names cookies (and localStorage keys) the browser already had, left as they were. */
export const StateLoadDriverResult = z.strictObject({
  cookies: z.number().int(),
  origins: z.number().int(),
  kept: z
    .array(z.string())
    .max(MAX_STATE_COOKIES + 10_000 * MAX_STATE_ORIGINS)
    .optional(),
  /** Origins whose localStorage this browser could not load (the user's Chrome: only the page's own). */
  skipped: z.array(z.string()).max(MAX_STATE_ORIGINS).optional(),
});
export const StateLoadResult = StateLoadDriverResult.extend({ path: z.string() });

// --- cookies of the current origin ----------------------------------------------------------------------

export const CookiesListResult = z.strictObject({
  url: z.string(),
  cookies: z.array(StateCookieSchema).max(MAX_STATE_COOKIES),
});
export const CookiesSetParams = z.strictObject({
  name: CookieName,
  value: CookieValue,
  path: z
    .string()
    .max(1024)
    .refine((p) => p.startsWith('/'), 'a path starts with /')
    .optional(),
  /** Seconds since the epoch; a session cookie when left out. */
  expires: z.number().positive().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  sameSite: SameSiteSchema.optional(),
});
export const CookiesSetResult = z.strictObject({
  url: z.string(),
  name: z.string(),
  set: z.boolean(),
  /** Why it was not set (the user's own cookie of that name is kept). */
  reason: z.string().optional(),
});
export const CookiesClearParams = z.strictObject({ name: CookieName.optional() });
export const CookiesClearResult = z.strictObject({ url: z.string(), cleared: z.number().int() });

// --- emulate --------------------------------------------------------------------------------------------

export const EMULATE_FEATURES = [
  'viewport',
  'userAgent',
  'touch',
  'geolocation',
  'timezone',
  'locale',
  'colorScheme',
  'offline',
  'network',
] as const;
export const EmulateFeatureSchema = z.enum(EMULATE_FEATURES);
export type EmulateFeature = z.infer<typeof EmulateFeatureSchema>;

export const NETWORK_PROFILES = ['slow-3g', 'fast-3g', '4g', 'none'] as const;

export const EmulateParams = z
  .strictObject({
    device: z.enum(DEVICE_NAMES).optional(),
    width: z.number().int().min(100).max(4000).optional(),
    height: z.number().int().min(100).max(4000).optional(),
    scale: z.number().min(0.5).max(4).optional(),
    mobile: z.boolean().optional(),
    userAgent: z.string().min(1).max(512).optional(),
    touch: z.boolean().optional(),
    geolocation: z
      .strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .optional(),
    // Checked by refinements rather than patterns: the tool's JSON Schema stays short.
    timezone: z
      .string()
      .refine((t) => /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/.test(t), 'an IANA time zone such as Europe/Paris')
      .optional(),
    locale: z
      .string()
      .refine((l) => /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(l), 'a language tag such as fr-FR')
      .optional(),
    colorScheme: z.enum(['light', 'dark', 'no-preference']).optional(),
    offline: z.boolean().optional(),
    network: z.enum(NETWORK_PROFILES).optional(),
    /** Undo every emulation of this tab. */
    reset: z.boolean().optional(),
  })
  .refine((p) => (p.width === undefined) === (p.height === undefined), 'give width and height together')
  .refine((p) => Object.keys(p).length > 0, 'name something to emulate, or reset');
export type EmulateParamsType = z.infer<typeof EmulateParams>;

export const EmulateResult = z.strictObject({
  applied: z.array(EmulateFeatureSchema),
  /** What this browser did not apply, and why (the user's own Chrome keeps its browsing as it is). */
  notApplied: z.array(z.strictObject({ feature: EmulateFeatureSchema, why: z.string() })).optional(),
  reset: z.literal(true).optional(),
});
