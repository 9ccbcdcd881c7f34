import { z } from 'zod';
import { ElementHandleSchema, RawTabIdSchema, SessionIdSchema, TabHandleSchema } from './ids';
import { ElementTargetSchema, TargetInputSchema } from './targets';

/**
 * Params and results of every action. Three shapes per action where they differ:
 * - `params`: what an agent sends in POST / (handles, logical tabs);
 * - `forwarded`: what a driver receives (handles resolved to ElementTarget); absent for daemon-local actions;
 * - `driverResult`: what a driver answers (refs, raw tab ids); the daemon turns it into `result`.
 */

const PacingModeSchema = z.enum(['human', 'fast']);
export type PacingMode = z.infer<typeof PacingModeSchema>;

const Empty = z.strictObject({});
const Url = z.string().min(1).max(8192);
const LabelSchema = z.string().min(1).max(64);

export const SessionInfoSchema = z.strictObject({
  session: SessionIdSchema,
  label: LabelSchema.optional(),
  state: z.enum(['created', 'bound', 'paused']),
  tab: TabHandleSchema.nullable(),
  tabs: z.array(TabHandleSchema),
  pacing: PacingModeSchema,
  paused: z.boolean(),
  pauseReason: z.string().optional(),
  createdAt: z.number(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const TabInfoSchema = z.strictObject({
  tab: TabHandleSchema,
  session: SessionIdSchema,
  url: z.string(),
  title: z.string(),
  pinned: z.boolean(),
  bound: z.boolean(),
  browser: z.string(),
});
export type TabInfo = z.infer<typeof TabInfoSchema>;

/** What a driver reports about a raw tab; the daemon maps it to a TabInfo. */
const DriverTabSchema = z.strictObject({
  tabId: RawTabIdSchema,
  url: z.string(),
  title: z.string(),
  pinned: z.boolean().optional(),
});

const PageStateSchema = z.strictObject({ url: z.string(), title: z.string() });

/** Effects an action had that the agent should know about, without re-reading the page. */
const EffectsSchema = z.strictObject({
  url: z.string(),
  title: z.string(),
  navigated: z.boolean(),
  dialog: z.strictObject({ type: z.string(), message: z.string() }).optional(),
});

const ScopeSchema = TargetInputSchema.optional();
const ForwardedScope = ElementTargetSchema.optional();

const LIMIT = z.number().int().min(1).max(1000);
const MAX_CHARS = z.number().int().min(100).max(1_000_000);
const OFFSET = z.number().int().min(0).max(100_000_000);

const CrossOriginFramesSchema = z.array(z.strictObject({ src: z.string() }));

// --- reads -------------------------------------------------------------------------------------------

const TextParams = z.strictObject({
  target: ScopeSchema,
  maxChars: MAX_CHARS.optional(),
  offset: OFFSET.optional(),
});
const TextResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  text: z.string(),
  totalChars: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().optional(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});

const LinkFields = {
  text: z.string(),
  href: z.string(),
};
const LinksParams = z.strictObject({
  target: ScopeSchema,
  limit: LIMIT.optional(),
  contains: z.string().max(200).optional(),
});
const DriverLink = z.strictObject({ ref: z.string(), selector: z.string(), ...LinkFields });
const LinksDriverResult = z.strictObject({
  url: z.string(),
  links: z.array(DriverLink),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});
const LinksResult = z.strictObject({
  url: z.string(),
  links: z.array(z.strictObject({ handle: ElementHandleSchema, ...LinkFields })),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});

const ElementFields = {
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  type: z.string().optional(),
  value: z.string().optional(),
  checked: z.boolean().optional(),
  disabled: z.boolean().optional(),
  href: z.string().optional(),
  options: z.array(z.string()).optional(),
};
const ElementsParams = z.strictObject({
  target: ScopeSchema,
  limit: LIMIT.optional(),
  contains: z.string().max(200).optional(),
  role: z.string().max(50).optional(),
});
const DriverElement = z.strictObject({ ref: z.string(), selector: z.string(), ...ElementFields });
const ElementsDriverResult = z.strictObject({
  url: z.string(),
  elements: z.array(DriverElement),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});
const ElementsResult = z.strictObject({
  url: z.string(),
  elements: z.array(z.strictObject({ handle: ElementHandleSchema, ...ElementFields })),
  total: z.number().int(),
  truncated: z.boolean(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});

const InspectParams = z.strictObject({ target: TargetInputSchema });
const InspectResult = z.strictObject({
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
});

const SnapshotParams = z.strictObject({
  target: ScopeSchema,
  maxChars: MAX_CHARS.optional(),
  offset: OFFSET.optional(),
  contains: z.string().max(200).optional(),
});
export { SNAPSHOT_REF_OPEN, SNAPSHOT_REF_CLOSE } from './snapshot-refs';
const SnapshotDriverResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  snapshot: z.string(),
  refs: z.array(z.strictObject({ ref: z.string(), selector: z.string(), kind: z.enum(['el', 'ln']) })),
  totalChars: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().optional(),
  notice: z.string().optional(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});
const SnapshotResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  snapshot: z.string(),
  totalChars: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().optional(),
  notice: z.string().optional(),
  crossOriginFrames: CrossOriginFramesSchema.optional(),
});

const ScreenshotParams = z.strictObject({
  target: ScopeSchema,
  fullPage: z.boolean().optional(),
  format: z.enum(['png', 'jpeg']).optional(),
  quality: z.number().int().min(1).max(100).optional(),
});
const ScreenshotResult = z.strictObject({
  mimeType: z.enum(['image/png', 'image/jpeg']),
  data: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

// --- interaction -------------------------------------------------------------------------------------

const ClickParams = z.strictObject({
  target: TargetInputSchema,
  button: z.enum(['left', 'middle', 'right']).optional(),
  clickCount: z.number().int().min(1).max(3).optional(),
});
const HoverParams = z.strictObject({ target: TargetInputSchema });
const FillParams = z.strictObject({ target: TargetInputSchema, value: z.string().max(100_000) });
const TypeParams = z.strictObject({ text: z.string().min(1).max(10_000), target: ScopeSchema });
const PressParams = z.strictObject({
  key: z
    .string()
    .min(1)
    .max(64)
    .regex(/^((Control|Shift|Alt|Meta)\+)*[^+]+$|^\+$/, 'expected a key like Enter, a or Control+A'),
  target: ScopeSchema,
});
const SelectParams = z.strictObject({
  target: TargetInputSchema,
  values: z.array(z.string().max(1000)).min(1).max(100),
});
const SelectResult = EffectsSchema.extend({ selected: z.array(z.string()) });
const ScrollParams = z
  .strictObject({
    target: ScopeSchema,
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    amount: z.number().int().min(1).max(100_000).optional(),
    to: z.enum(['top', 'bottom', 'element']).optional(),
  })
  .refine((p) => !(p.to !== undefined && p.direction !== undefined), 'give either direction or to, not both');
const ScrollResult = z.strictObject({
  x: z.number(),
  y: z.number(),
  atTop: z.boolean(),
  atBottom: z.boolean(),
});

const WaitParams = z
  .strictObject({
    text: z.string().min(1).max(1000).optional(),
    selector: z.string().min(1).max(2000).optional(),
    target: TargetInputSchema.optional(),
    navigation: z.boolean().optional(),
    state: z.enum(['visible', 'hidden', 'attached', 'detached']).optional(),
    timeoutMs: z.number().int().min(0).max(300_000).optional(),
  })
  .refine(
    (p) =>
      [p.text, p.selector, p.target, p.navigation === true ? true : undefined].filter((v) => v !== undefined)
        .length === 1,
    'give exactly one of text, selector, target or navigation',
  );
const ForwardedWaitParams = z.strictObject({
  text: z.string().optional(),
  selector: z.string().optional(),
  target: ElementTargetSchema.optional(),
  navigation: z.boolean().optional(),
  state: z.enum(['visible', 'hidden', 'attached', 'detached']).optional(),
  timeoutMs: z.number().int().min(0).max(300_000).optional(),
});
const WaitResult = z.strictObject({ url: z.string(), title: z.string(), waitedMs: z.number() });

const DialogParams = z.strictObject({ accept: z.boolean(), promptText: z.string().max(10_000).optional() });
const DialogResult = z.strictObject({ type: z.string(), message: z.string(), accepted: z.boolean() });

// --- navigation ----------------------------------------------------------------------------------------

const NavigateParams = z.strictObject({
  url: Url,
  waitUntil: z.enum(['load', 'domcontentloaded', 'none']).optional(),
});
const HistoryParams = z.strictObject({ waitUntil: z.enum(['load', 'domcontentloaded', 'none']).optional() });

// --- tabs ---------------------------------------------------------------------------------------------

const TabOpenParams = z.strictObject({
  url: Url.optional(),
  browser: z.string().min(1).max(64).optional(),
  active: z.boolean().optional(),
});
const TabOpenForwarded = z.strictObject({ url: z.string(), active: z.boolean().optional() });
const TabParams = z.strictObject({ tab: TabHandleSchema.optional() });
const TabCloseResult = z.strictObject({ tab: TabHandleSchema, closed: z.literal(true) });

// --- sessions -----------------------------------------------------------------------------------------

const SessionCreateParams = z.strictObject({
  label: LabelSchema.optional(),
  pacing: PacingModeSchema.optional(),
});
const SessionCreateResult = SessionInfoSchema.extend({ tmpDir: z.string() });
const SessionBindParams = z
  .strictObject({ tab: TabHandleSchema.optional(), pacing: PacingModeSchema.optional() })
  .refine((p) => p.tab !== undefined || p.pacing !== undefined, 'give a tab, a pacing mode, or both');
const SessionCloseResult = z.strictObject({ session: SessionIdSchema, closedTabs: z.array(TabHandleSchema) });

// --- debug --------------------------------------------------------------------------------------------

export const TraceSchema = z.strictObject({
  id: z.string(),
  action: z.string(),
  session: z.string().optional(),
  receivedAt: z.number(),
  elapsedMs: z.number(),
  ok: z.boolean(),
  errorCode: z.string().optional(),
});
export type Trace = z.infer<typeof TraceSchema>;
const DebugLastParams = z.strictObject({ limit: z.number().int().min(1).max(200).optional() });
const DebugLastResult = z.strictObject({ traces: z.array(TraceSchema) });
const ClientInfoSchema = z.strictObject({
  name: z.string(),
  kind: z.string(),
  connected: z.boolean(),
  connectedAt: z.number(),
  tabs: z.number().int(),
  version: z.string().optional(),
});
const DebugStatusResult = z.strictObject({
  version: z.string(),
  protocolVersion: z.number().int(),
  pid: z.number().int(),
  port: z.number().int(),
  uptimeMs: z.number(),
  clients: z.array(ClientInfoSchema),
  sessions: z.array(SessionInfoSchema),
  pending: z.number().int(),
  handles: z.number().int(),
  paired: z.boolean(),
});
const DebugLogParams = z.strictObject({ limit: z.number().int().min(1).max(500).optional() });
const DebugLogResult = z.strictObject({ entries: z.array(z.record(z.string(), z.unknown())) });

/** How the daemon treats an action. */
export type ActionRouting =
  /** Handled inside the daemon; never reaches a driver. */
  | 'local'
  /** Forwarded to the driver serving the session's bound tab. */
  | 'tab'
  /** Forwarded to a driver but not to a tab (tab.open, debug.log). */
  | 'client';

/** Pacing category the daemon enforces before forwarding; reads are not paced. */
export type PacingCategory = 'navigate' | 'scroll' | 'interaction' | 'fill';

interface ActionDef {
  readonly params: z.ZodType;
  readonly result: z.ZodType;
  readonly routing: ActionRouting;
  /** Whether the action may change the page (logged as `destructive`). */
  readonly destructive: boolean;
  readonly pacing?: PacingCategory;
  /** The driver-side params when they differ from `params` (handles resolved). */
  readonly forwarded?: z.ZodType;
  /** The driver-side result when it differs from `result`. */
  readonly driverResult?: z.ZodType;
  /** Read actions that mint element handles from their driver result. */
  readonly mints?: readonly ('el' | 'ln')[];
  readonly summary: string;
}

const withForwardedTarget = <T extends z.ZodRawShape>(shape: T, optional: boolean) =>
  z.strictObject({ ...shape, target: optional ? ForwardedScope : ElementTargetSchema });

export const ACTIONS = {
  'session.create': {
    params: SessionCreateParams,
    result: SessionCreateResult,
    routing: 'local',
    destructive: false,
    summary: 'Create a session (returns its id)',
  },
  'session.list': {
    params: Empty,
    result: z.strictObject({ sessions: z.array(SessionInfoSchema) }),
    routing: 'local',
    destructive: false,
    summary: 'List sessions',
  },
  'session.bind': {
    params: SessionBindParams,
    result: SessionInfoSchema,
    routing: 'local',
    destructive: false,
    summary: 'Bind the session to one of its tabs and/or set its pacing',
  },
  'session.unbind': {
    params: Empty,
    result: SessionInfoSchema,
    routing: 'local',
    destructive: false,
    summary: 'Clear the tab binding (and a pause)',
  },
  'session.resume': {
    params: Empty,
    result: SessionInfoSchema,
    routing: 'local',
    destructive: false,
    summary: 'Resume a session paused for a human',
  },
  'session.close': {
    params: Empty,
    result: SessionCloseResult,
    routing: 'local',
    destructive: true,
    summary: 'Close the session and its tabs',
  },

  'tab.open': {
    params: TabOpenParams,
    result: TabInfoSchema,
    routing: 'client',
    destructive: true,
    pacing: 'navigate',
    forwarded: TabOpenForwarded,
    driverResult: DriverTabSchema,
    summary: 'Open a tab (creates and binds a session when none is given)',
  },
  'tab.close': {
    params: TabParams,
    result: TabCloseResult,
    routing: 'tab',
    destructive: true,
    forwarded: Empty,
    driverResult: z.strictObject({ closed: z.boolean() }),
    summary: 'Close a tab of the session (default: the bound one)',
  },
  'tab.list': {
    params: Empty,
    result: z.strictObject({ tabs: z.array(TabInfoSchema) }),
    routing: 'local',
    destructive: false,
    summary: "List the session's tabs",
  },
  'tab.pin': {
    params: TabParams,
    result: TabInfoSchema,
    routing: 'tab',
    destructive: false,
    forwarded: Empty,
    driverResult: DriverTabSchema,
    summary: 'Pin a tab in the browser',
  },
  'tab.unpin': {
    params: TabParams,
    result: TabInfoSchema,
    routing: 'tab',
    destructive: false,
    forwarded: Empty,
    driverResult: DriverTabSchema,
    summary: 'Unpin a tab',
  },

  navigate: {
    params: NavigateParams,
    result: PageStateSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    summary: 'Load a URL in the bound tab',
  },
  back: {
    params: HistoryParams,
    result: PageStateSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    summary: 'Go back in history',
  },
  forward: {
    params: HistoryParams,
    result: PageStateSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    summary: 'Go forward in history',
  },
  reload: {
    params: HistoryParams,
    result: PageStateSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    summary: 'Reload the page',
  },

  text: {
    params: TextParams,
    result: TextResult,
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(TextParams.shape, true),
    summary: 'Read the visible text',
  },
  links: {
    params: LinksParams,
    result: LinksResult,
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(LinksParams.shape, true),
    driverResult: LinksDriverResult,
    mints: ['ln'],
    summary: 'List links (mints ln handles)',
  },
  elements: {
    params: ElementsParams,
    result: ElementsResult,
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(ElementsParams.shape, true),
    driverResult: ElementsDriverResult,
    mints: ['el'],
    summary: 'List actionable elements (mints el handles)',
  },
  inspect: {
    params: InspectParams,
    result: InspectResult,
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(InspectParams.shape, false),
    summary: 'Describe one element',
  },
  snapshot: {
    params: SnapshotParams,
    result: SnapshotResult,
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(SnapshotParams.shape, true),
    driverResult: SnapshotDriverResult,
    mints: ['el', 'ln'],
    summary: 'Compact page outline for language models (mints handles)',
  },
  screenshot: {
    params: ScreenshotParams,
    result: ScreenshotResult,
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(ScreenshotParams.shape, true),
    summary: 'Capture the page as an image',
  },

  scroll: {
    params: ScrollParams,
    result: ScrollResult,
    routing: 'tab',
    destructive: false,
    pacing: 'scroll',
    forwarded: withForwardedTarget(ScrollParams.shape, true),
    summary: 'Scroll the page or an element',
  },
  click: {
    params: ClickParams,
    result: EffectsSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    forwarded: withForwardedTarget(ClickParams.shape, false),
    summary: 'Click an element',
  },
  hover: {
    params: HoverParams,
    result: EffectsSchema,
    routing: 'tab',
    destructive: false,
    pacing: 'interaction',
    forwarded: withForwardedTarget(HoverParams.shape, false),
    summary: 'Move the pointer over an element',
  },
  fill: {
    params: FillParams,
    result: EffectsSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    forwarded: withForwardedTarget(FillParams.shape, false),
    summary: 'Set the value of a field (fires input and change)',
  },
  type: {
    params: TypeParams,
    result: EffectsSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    forwarded: withForwardedTarget(TypeParams.shape, true),
    summary: 'Type text key by key',
  },
  press: {
    params: PressParams,
    result: EffectsSchema,
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    forwarded: withForwardedTarget(PressParams.shape, true),
    summary: 'Press a key (Enter, Control+A, …)',
  },
  select: {
    params: SelectParams,
    result: SelectResult,
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    forwarded: withForwardedTarget(SelectParams.shape, false),
    summary: 'Choose options of a <select> by value or label',
  },
  wait: {
    params: WaitParams,
    result: WaitResult,
    routing: 'tab',
    destructive: false,
    forwarded: ForwardedWaitParams,
    summary: 'Wait for text, an element, or a navigation',
  },
  dialog: {
    params: DialogParams,
    result: DialogResult,
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    summary: 'Accept or dismiss the open JavaScript dialog',
  },

  'debug.last': {
    params: DebugLastParams,
    result: DebugLastResult,
    routing: 'local',
    destructive: false,
    summary: 'Last request traces (ring of 200)',
  },
  'debug.status': {
    params: Empty,
    result: DebugStatusResult,
    routing: 'local',
    destructive: false,
    summary: 'Daemon, browsers and sessions at a glance',
  },
  'debug.log': {
    params: DebugLogParams,
    result: DebugLogResult,
    routing: 'client',
    destructive: false,
    summary: "The browser driver's own recent log",
  },
} as const satisfies Record<string, ActionDef>;

export type ActionName = keyof typeof ACTIONS;
export const ACTION_NAMES = Object.keys(ACTIONS) as [ActionName, ...ActionName[]];
export const ActionNameSchema = z.enum(ACTION_NAMES);

export type ActionParams<A extends ActionName> = z.infer<(typeof ACTIONS)[A]['params']>;
export type ActionResult<A extends ActionName> = z.infer<(typeof ACTIONS)[A]['result']>;

export function isActionName(value: unknown): value is ActionName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ACTIONS, value);
}

export function actionDef(action: ActionName): ActionDef {
  return ACTIONS[action];
}

/** The schema a driver validates forwarded params against. */
export function forwardedParamsSchema(action: ActionName): z.ZodType {
  const def = actionDef(action);
  return def.forwarded ?? def.params;
}

/** The schema the daemon validates a driver's result against. */
export function driverResultSchema(action: ActionName): z.ZodType {
  const def = actionDef(action);
  return def.driverResult ?? def.result;
}

export type DriverTab = z.infer<typeof DriverTabSchema>;
export type LinksDriverResult = z.infer<typeof LinksDriverResult>;
export type ElementsDriverResult = z.infer<typeof ElementsDriverResult>;
export type SnapshotDriverResult = z.infer<typeof SnapshotDriverResult>;
export { DriverTabSchema };
