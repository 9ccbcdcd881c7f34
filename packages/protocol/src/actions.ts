import { z } from 'zod';
import { ElementTargetSchema } from './targets';
import {
  Empty,
  SessionInfoSchema,
  TabInfoSchema,
  DriverTabSchema,
  PageStateSchema,
  EffectsSchema,
  ForwardedScope,
} from './schemas/common';
import {
  TextParams,
  TextResult,
  LinksParams,
  LinksDriverResult,
  LinksResult,
  ElementsParams,
  ElementsDriverResult,
  ElementsResult,
  InspectParams,
  InspectResult,
  SnapshotParams,
  SnapshotDriverResult,
  SnapshotResult,
  ScreenshotParams,
  ScreenshotResult,
} from './schemas/reads';
import {
  ClickParams,
  HoverParams,
  FillParams,
  TypeParams,
  PressParams,
  SelectParams,
  SelectResult,
  ScrollParams,
  ScrollResult,
  WaitParams,
  ForwardedWaitParams,
  WaitResult,
  DialogParams,
  DialogResult,
} from './schemas/interaction';
import {
  NavigateParams,
  HistoryParams,
  TabOpenParams,
  TabOpenForwarded,
  TabParams,
  TabCloseResult,
  SessionCreateParams,
  SessionCreateResult,
  SessionBindParams,
  SessionCloseResult,
} from './schemas/session-tab';
import {
  DebugLastParams,
  DebugLastResult,
  DebugStatusResult,
  DebugLogParams,
  DebugLogResult,
} from './schemas/debug';
export {
  SessionInfoSchema,
  TabInfoSchema,
  DriverTabSchema,
  type PacingMode,
  type SessionInfo,
  type TabInfo,
} from './schemas/common';
export { TraceSchema, type Trace } from './schemas/debug';
export { HANDLES_PER_READ, SNAPSHOT_REF_OPEN, SNAPSHOT_REF_CLOSE } from './snapshot-refs';

/**
 * Params and results of every action. Three shapes per action where they differ:
 * - `params`: what an agent sends in POST / (handles, logical tabs);
 * - `forwarded`: what a driver receives (handles resolved to ElementTarget); absent for daemon-local actions;
 * - `driverResult`: what a driver answers (refs, raw tab ids); the daemon turns it into `result`.
 */

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
    summary: 'List links (mints ln handles)',
  },
  elements: {
    params: ElementsParams,
    result: ElementsResult,
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(ElementsParams.shape, true),
    driverResult: ElementsDriverResult,
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
