import { z } from 'zod';
import { ErrorCodeSchema } from '../errors';
import { SessionIdSchema } from '../ids';
import { PAIRING_CODE_PATTERN, PAIRING_DIRECT_CODE_PATTERN } from '../pairing/pairing';

/**
 * The native messaging port between the extension's service worker and the native host
 * (`com.bproxy.host`): Chrome frames each message as a 32-bit native-order length and UTF-8 JSON. The
 * worker holds one port for the life of the browser; the host serves the daemon locator and zero-touch
 * pairing, the in-browser agent's chats, and terminals. Both ends validate every message against
 * these schemas, and the first exchange (hello / welcome) checks NATIVE_PROTOCOL_VERSION.
 */

export const NATIVE_HOST_NAME = 'com.bproxy.host';
/** Bumped on any breaking change to a message below. */
export const NATIVE_PROTOCOL_VERSION = 1;
/** Chrome refuses host → browser messages above 1 MiB; larger ones travel as chunks. */
export const NATIVE_MAX_TO_BROWSER = 1024 * 1024;
/** The host refuses browser → host messages above this (Chrome allows up to 4 GiB). */
export const NATIVE_MAX_FROM_BROWSER = 64 * 1024 * 1024;

const Id = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'expected 1-64 characters of A-Z a-z 0-9 _ . : -');
/** A chat is one conversation, kept by the host across panel closes and browser restarts. */
export const ChatIdSchema = Id;
export const TermIdSchema = Id;
const Text = z.string().max(100_000);

// --- extension → host -------------------------------------------------------------------------------

export const NativeHelloSchema = z.strictObject({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  extensionVersion: z.string().max(32),
});
/** Where the daemon of the host's BPROXY_HOME listens (started when `start` is set and none runs). */
export const DaemonLocateSchema = z.strictObject({
  type: z.literal('daemon.locate'),
  id: Id,
  start: z.boolean(),
});
/** A fresh one-time pairing code from the daemon (started when none runs), for /pair/claim. */
export const PairingRequestSchema = z.strictObject({ type: z.literal('pairing.request'), id: Id });

export const ModelChoiceSchema = z.enum(['auto', 'fast', 'strong']);
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;

/** A message the user typed into a chat; the agent acts in `session` (a tab the user shared). */
export const ChatUserMessageSchema = z.strictObject({
  type: z.literal('user'),
  chatId: ChatIdSchema,
  text: z.string().min(1).max(20_000),
  session: SessionIdSchema,
  /** `auto` routes by the seed's rule: analysis words go to the strong model, the rest to the fast one. */
  model: ModelChoiceSchema.optional(),
});
export const ChatStopSchema = z.strictObject({ type: z.literal('stop'), chatId: ChatIdSchema });
export const ChatHistoryRequestSchema = z.strictObject({
  type: z.literal('chat.history'),
  id: Id,
  chatId: ChatIdSchema,
});
export const SettingsGetSchema = z.strictObject({ type: z.literal('settings.get'), id: Id });
/** Tool switches and model names only: keys are set with `bproxy agent config`, never from the browser. */
export const SettingsSetSchema = z.strictObject({
  type: z.literal('settings.set'),
  id: Id,
  tools: z.record(z.string().max(64), z.boolean()).optional(),
  models: z
    .strictObject({ fast: z.string().max(128), strong: z.string().max(128) })
    .partial()
    .optional(),
  /**
   * What the panel showed for each field it changes: when a field is no longer that (`bproxy agent
   * config` changed it meanwhile), nothing is saved and the answer says so — stale fields never
   * overwrite newer settings.
   */
  base: z
    .strictObject({
      tools: z.record(z.string().max(64), z.boolean()).optional(),
      models: z
        .strictObject({ fast: z.string().max(128), strong: z.string().max(128) })
        .partial()
        .optional(),
    })
    .optional(),
});

export const PtyOpenSchema = z.strictObject({
  type: z.literal('pty.open'),
  termId: TermIdSchema,
  cols: z.number().int().min(2).max(1000),
  rows: z.number().int().min(2).max(1000),
  /** The session the terminal's BPROXY_SESSION names (a tab the user shared). */
  session: SessionIdSchema.optional(),
});
export const PtyInputSchema = z.strictObject({
  type: z.literal('pty.input'),
  termId: TermIdSchema,
  data: z.string().max(1024 * 1024),
});
export const PtyResizeSchema = z.strictObject({
  type: z.literal('pty.resize'),
  termId: TermIdSchema,
  cols: z.number().int().min(2).max(1000),
  rows: z.number().int().min(2).max(1000),
});
/** The view went away: keep the process for a while so a reopened view can reattach. */
export const PtyDetachSchema = z.strictObject({ type: z.literal('pty.detach'), termId: TermIdSchema });
export const PtyCloseSchema = z.strictObject({ type: z.literal('pty.close'), termId: TermIdSchema });
/**
 * The session now holding the terminal's tab (none: no session holds it): what `bproxy` run in the
 * terminal drives from now on, though its program started with another (the daemon restarted, the
 * user shared the tab again).
 */
export const PtySessionSchema = z.strictObject({
  type: z.literal('pty.session'),
  termId: TermIdSchema,
  session: SessionIdSchema.optional(),
});

export const ExtensionToHostSchema = z.discriminatedUnion('type', [
  NativeHelloSchema,
  DaemonLocateSchema,
  PairingRequestSchema,
  ChatUserMessageSchema,
  ChatStopSchema,
  ChatHistoryRequestSchema,
  SettingsGetSchema,
  SettingsSetSchema,
  PtyOpenSchema,
  PtyInputSchema,
  PtyResizeSchema,
  PtyDetachSchema,
  PtyCloseSchema,
  PtySessionSchema,
]);
export type ExtensionToHost = z.infer<typeof ExtensionToHostSchema>;

// --- host → extension -------------------------------------------------------------------------------

export const NativeWelcomeSchema = z.strictObject({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  hostVersion: z.string().max(32),
  /**
   * The absolute path of a launcher that runs this installation's CLI (BPROXY_HOME/host/bin/bproxy):
   * the command line the popup hands out runs where `bproxy` is not on PATH.
   */
  cli: z.string().min(1).max(4096).optional(),
});
export const DaemonLocationSchema = z.strictObject({
  type: z.literal('daemon.location'),
  id: Id,
  running: z.boolean(),
  port: z.number().int().min(1).max(65535).nullable(),
  /** Whether this call started it. */
  started: z.boolean(),
});
export const PairingCodeSchema = z.strictObject({
  type: z.literal('pairing.code'),
  id: Id,
  port: z.number().int().min(1).max(65535),
  /** A direct code (PAIRING_DIRECT_CODE_PATTERN): the host asks for one; a typed one from an older host. */
  code: z.union([z.string().regex(PAIRING_DIRECT_CODE_PATTERN), z.string().regex(PAIRING_CODE_PATTERN)]),
  expiresAt: z.number(),
});

export const ChatDeltaSchema = z.strictObject({ type: z.literal('delta'), chatId: ChatIdSchema, text: Text });
export const ChatToolCallSchema = z.strictObject({
  type: z.literal('tool_call'),
  chatId: ChatIdSchema,
  callId: Id,
  name: z.string().max(64),
  input: z.record(z.string(), z.unknown()),
});
export const ChatToolResultSchema = z.strictObject({
  type: z.literal('tool_result'),
  chatId: ChatIdSchema,
  callId: Id,
  ok: z.boolean(),
  /** The one-line reply the model saw (page content itself is not echoed to the panel). */
  text: Text,
});
export const ChatTurnDoneSchema = z.strictObject({
  type: z.literal('turn_done'),
  chatId: ChatIdSchema,
  stopped: z.boolean(),
  model: z.string().max(128).optional(),
});
/** The chat queue moved: how many messages wait behind the running turn. */
export const ChatQueueSchema = z.strictObject({
  type: z.literal('chat.queue'),
  chatId: ChatIdSchema,
  running: z.boolean(),
  queued: z.number().int().min(0),
  /** Set by Stop: how many waiting messages it dropped (never sent to the model). */
  dropped: z.number().int().min(1).optional(),
});

export const TranscriptEntrySchema = z.discriminatedUnion('role', [
  z.strictObject({
    role: z.literal('user'),
    text: Text,
    at: z.number(),
    /** A message that waited behind a running answer and was dropped by Stop: never sent to the model. */
    dropped: z.literal(true).optional(),
  }),
  z.strictObject({ role: z.literal('assistant'), text: Text, at: z.number(), model: z.string().optional() }),
  z.strictObject({
    role: z.literal('tool'),
    callId: Id,
    name: z.string().max(64),
    input: z.record(z.string(), z.unknown()),
    ok: z.boolean().nullable(),
    text: Text,
    at: z.number(),
  }),
  z.strictObject({ role: z.literal('error'), text: Text, at: z.number() }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>;
export const ChatTranscriptSchema = z.strictObject({
  type: z.literal('chat.transcript'),
  id: Id,
  chatId: ChatIdSchema,
  entries: z.array(TranscriptEntrySchema),
  running: z.boolean(),
});

export const AgentSettingsSchema = z.strictObject({
  type: z.literal('settings'),
  id: Id,
  provider: z.string().max(64).nullable(),
  models: z.strictObject({ fast: z.string().max(128), strong: z.string().max(128) }),
  /** Every tool the agent knows, and whether the user left it on. */
  tools: z.record(z.string().max(64), z.boolean()),
  /** Whether a provider (and its key, where it needs one) is configured. */
  configured: z.boolean(),
});

export const PtyOutputSchema = z.strictObject({
  type: z.literal('pty.output'),
  termId: TermIdSchema,
  data: z.string(),
  /** Set on the output replayed to a view that reattached. */
  replay: z.boolean().optional(),
});
export const PtyExitSchema = z.strictObject({
  type: z.literal('pty.exit'),
  termId: TermIdSchema,
  exitCode: z.number().int().nullable(),
  signal: z.string().max(16).nullable(),
  /**
   * Set when the host ended the program itself, told to the view that comes back for it:
   * `detach_expired` — no panel showed the terminal for the host's detach window.
   */
  reason: z.enum(['detach_expired']).optional(),
});

/** A failure, tied to the request (`id`) or chat it answers when there is one. */
export const NativeErrorSchema = z.strictObject({
  type: z.literal('error'),
  id: Id.optional(),
  chatId: ChatIdSchema.optional(),
  termId: TermIdSchema.optional(),
  code: ErrorCodeSchema,
  message: z.string().max(4000),
});

/** Part of a host → browser message too large for one frame; the extension reassembles them in order. */
export const NativeChunkSchema = z.strictObject({
  type: z.literal('chunk'),
  chunkId: Id,
  index: z.number().int().min(0),
  count: z.number().int().min(2).max(4096),
  data: z.string(),
});

export const HostToExtensionSchema = z.discriminatedUnion('type', [
  NativeWelcomeSchema,
  DaemonLocationSchema,
  PairingCodeSchema,
  ChatDeltaSchema,
  ChatToolCallSchema,
  ChatToolResultSchema,
  ChatTurnDoneSchema,
  ChatQueueSchema,
  ChatTranscriptSchema,
  AgentSettingsSchema,
  PtyOutputSchema,
  PtyExitSchema,
  NativeErrorSchema,
]);
export type HostToExtension = z.infer<typeof HostToExtensionSchema>;
export type NativeChunk = z.infer<typeof NativeChunkSchema>;
