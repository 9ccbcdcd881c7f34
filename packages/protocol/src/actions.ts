import { z } from 'zod';
import { ElementTargetSchema } from './targets';
import {
  Empty,
  SessionInfoSchema,
  TabInfoSchema,
  DriverTabSchema,
  PageStateSchema,
  EffectsSchema,
  DriverEffectsSchema,
  InputEffectsSchema,
  DriverInputEffectsSchema,
  ForwardedScope,
  NotesShape,
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
  SelectDriverResult,
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
  NavigateResult,
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
  PairingIssueParams,
  PairingIssueResult,
} from './schemas/debug';
export {
  PacingModeSchema,
  SessionInfoSchema,
  TabInfoSchema,
  DriverTabSchema,
  OpenedTabSchema,
  DriverOpenedTabSchema,
  type OpenedTab,
  type DriverOpenedTab,
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

/**
 * How a browser driver treats a forwarded action, said once here rather than in each driver. Both
 * drivers read these flags; what an action *does* stays in their handlers.
 */
export interface DriverFlags {
  /** Safe to run again when a driver restart may have interrupted a first run (idempotent, or deduplicated by the page ledger or tab.open's mark). */
  readonly resumable: boolean;
  /** Starts (or reconnects) the driver's browser when none is up, instead of needing an open tab. */
  readonly startsBrowser?: boolean;
  /** Runs while a JavaScript dialog blocks its tab; every other tab action answers DIALOG_OPEN then. */
  readonly withDialog?: boolean;
  /** Answers with its effects: the page it ended on, whether it navigated, a dialog it opened. */
  readonly effects?: boolean;
  /** May start a navigation (a link click, Enter in a form) that the driver follows before answering. */
  readonly mayNavigate?: boolean;
  /** Changes the page: recorded in the page's own ledger by request id, so that a replay cannot act twice. */
  readonly pageLedger?: boolean;
}

interface ActionDefBase {
  readonly params: z.ZodType;
  readonly result: z.ZodType;
  /** Whether the action may change the page (logged as `destructive`). */
  readonly destructive: boolean;
  readonly pacing?: PacingCategory;
  readonly summary: string;
}

/** Handled inside the daemon: no driver-side shapes, no driver flags. */
interface LocalActionDef extends ActionDefBase {
  readonly routing: 'local';
  readonly forwarded?: never;
  readonly driverResult?: never;
  readonly driver?: never;
}

/** Forwarded to a driver: every driver must handle it (see ForwardedAction). */
interface ForwardedActionDef extends ActionDefBase {
  readonly routing: Exclude<ActionRouting, 'local'>;
  /** The driver-side params when they differ from `params` (handles resolved). */
  readonly forwarded?: z.ZodType;
  /** The driver-side result when it differs from `result`. */
  readonly driverResult?: z.ZodType;
  readonly driver: DriverFlags;
}

type ActionDef = LocalActionDef | ForwardedActionDef;

const withForwardedTarget = <T extends z.ZodRawShape>(shape: T, optional: boolean) =>
  z.strictObject({ ...shape, target: optional ? ForwardedScope : ElementTargetSchema });

/** The result of an action addressed to a session: the daemon may add the session's notes to it. */
const noted = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) => schema.extend(NotesShape);

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
    result: noted(SessionInfoSchema),
    routing: 'local',
    destructive: false,
    summary: 'Bind the session to one of its tabs and/or set its pacing',
  },
  'session.unbind': {
    params: Empty,
    result: noted(SessionInfoSchema),
    routing: 'local',
    destructive: false,
    summary: 'Clear the tab binding (and a pause)',
  },
  'session.resume': {
    params: Empty,
    result: noted(SessionInfoSchema),
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
    result: noted(TabInfoSchema),
    routing: 'client',
    destructive: true,
    pacing: 'navigate',
    forwarded: TabOpenForwarded,
    driverResult: DriverTabSchema,
    driver: { startsBrowser: true, resumable: true },
    summary: 'Open a tab (creates and binds a session when none is given)',
  },
  'tab.close': {
    params: TabParams,
    result: noted(TabCloseResult),
    routing: 'tab',
    destructive: true,
    forwarded: Empty,
    driverResult: z.strictObject({ closed: z.boolean() }),
    driver: { resumable: true, withDialog: true },
    summary: 'Close a tab of the session (default: the bound one)',
  },
  'tab.list': {
    params: Empty,
    result: noted(z.strictObject({ tabs: z.array(TabInfoSchema) })),
    routing: 'local',
    destructive: false,
    summary: "List the session's tabs",
  },
  'tab.pin': {
    params: TabParams,
    result: noted(TabInfoSchema),
    routing: 'tab',
    destructive: false,
    forwarded: Empty,
    driverResult: DriverTabSchema,
    driver: { resumable: true, withDialog: true },
    summary: 'Pin a tab in the browser',
  },
  'tab.unpin': {
    params: TabParams,
    result: noted(TabInfoSchema),
    routing: 'tab',
    destructive: false,
    forwarded: Empty,
    driverResult: DriverTabSchema,
    driver: { resumable: true, withDialog: true },
    summary: 'Unpin a tab',
  },

  navigate: {
    params: NavigateParams,
    result: noted(NavigateResult),
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driverResult: PageStateSchema,
    driver: { resumable: true },
    summary: 'Load an http(s) URL in the current tab (opens one when there is none)',
  },
  back: {
    params: HistoryParams,
    result: noted(PageStateSchema),
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driverResult: PageStateSchema,
    driver: { resumable: false },
    summary: 'Go back in history',
  },
  forward: {
    params: HistoryParams,
    result: noted(PageStateSchema),
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driverResult: PageStateSchema,
    driver: { resumable: false },
    summary: 'Go forward in history',
  },
  reload: {
    params: HistoryParams,
    result: noted(PageStateSchema),
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driverResult: PageStateSchema,
    driver: { resumable: true },
    summary: 'Reload the page',
  },

  text: {
    params: TextParams,
    result: noted(TextResult),
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(TextParams.shape, true),
    driverResult: TextResult,
    driver: { resumable: true },
    summary: 'Read the visible text',
  },
  links: {
    params: LinksParams,
    result: noted(LinksResult),
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(LinksParams.shape, true),
    driverResult: LinksDriverResult,
    driver: { resumable: true },
    summary: 'List links (mints ln handles)',
  },
  elements: {
    params: ElementsParams,
    result: noted(ElementsResult),
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(ElementsParams.shape, true),
    driverResult: ElementsDriverResult,
    driver: { resumable: true },
    summary: 'List actionable elements (mints el handles)',
  },
  inspect: {
    params: InspectParams,
    result: noted(InspectResult),
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(InspectParams.shape, false),
    driverResult: InspectResult,
    driver: { resumable: true },
    summary: 'Describe one element',
  },
  snapshot: {
    params: SnapshotParams,
    result: noted(SnapshotResult),
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(SnapshotParams.shape, true),
    driverResult: SnapshotDriverResult,
    driver: { resumable: true },
    summary: 'Compact page outline for language models (mints handles)',
  },
  screenshot: {
    params: ScreenshotParams,
    result: noted(ScreenshotResult),
    routing: 'tab',
    destructive: false,
    forwarded: withForwardedTarget(ScreenshotParams.shape, true),
    driverResult: ScreenshotResult,
    driver: { resumable: true },
    summary: 'Capture the page as an image',
  },

  scroll: {
    params: ScrollParams,
    result: noted(ScrollResult),
    routing: 'tab',
    destructive: false,
    pacing: 'scroll',
    forwarded: withForwardedTarget(ScrollParams.shape, true),
    driverResult: ScrollResult,
    driver: { resumable: true, pageLedger: true },
    summary: 'Scroll the page or an element',
  },
  click: {
    params: ClickParams,
    result: noted(InputEffectsSchema),
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    forwarded: withForwardedTarget(ClickParams.shape, false),
    driverResult: DriverInputEffectsSchema,
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Click an element',
  },
  hover: {
    params: HoverParams,
    result: noted(InputEffectsSchema),
    routing: 'tab',
    destructive: false,
    pacing: 'interaction',
    forwarded: withForwardedTarget(HoverParams.shape, false),
    driverResult: DriverInputEffectsSchema,
    driver: { resumable: true, pageLedger: true, effects: true },
    summary: 'Move the pointer over an element',
  },
  fill: {
    params: FillParams,
    result: noted(EffectsSchema),
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    forwarded: withForwardedTarget(FillParams.shape, false),
    driverResult: DriverEffectsSchema,
    driver: { resumable: true, pageLedger: true, effects: true },
    summary: 'Set the value of a field (fires input and change)',
  },
  type: {
    params: TypeParams,
    result: noted(InputEffectsSchema),
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    forwarded: withForwardedTarget(TypeParams.shape, true),
    driverResult: DriverInputEffectsSchema,
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Type text key by key',
  },
  press: {
    params: PressParams,
    result: noted(InputEffectsSchema),
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    forwarded: withForwardedTarget(PressParams.shape, true),
    driverResult: DriverInputEffectsSchema,
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Press a key (Enter, Control+A, …)',
  },
  select: {
    params: SelectParams,
    result: noted(SelectResult),
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    forwarded: withForwardedTarget(SelectParams.shape, false),
    driverResult: SelectDriverResult,
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Choose options of a <select> by value or label',
  },
  wait: {
    params: WaitParams,
    result: noted(WaitResult),
    routing: 'tab',
    destructive: false,
    forwarded: ForwardedWaitParams,
    driverResult: WaitResult,
    driver: { resumable: true },
    summary: 'Wait for text, an element, or a navigation',
  },
  dialog: {
    params: DialogParams,
    result: noted(DialogResult),
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    driverResult: DialogResult,
    driver: { resumable: true, withDialog: true },
    summary: 'Accept or dismiss the open JavaScript dialog',
  },

  'pairing.issue': {
    params: PairingIssueParams,
    result: PairingIssueResult,
    routing: 'local',
    destructive: false,
    summary: 'Issue a fresh one-time pairing code for the extension (retires the previous one)',
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
    result: noted(DebugLogResult),
    routing: 'client',
    destructive: false,
    driverResult: DebugLogResult,
    driver: { resumable: true },
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

/** The actions a browser driver executes (routing 'tab' or 'client'): every driver's handler table covers exactly these. */
export type ForwardedAction = {
  [A in ActionName]: (typeof ACTIONS)[A]['routing'] extends 'local' ? never : A;
}[ActionName];

type Def<A extends ActionName> = (typeof ACTIONS)[A];

/** The params a driver receives for `A`, after the daemon resolved handles. */
export type ForwardedParams<A extends ForwardedAction> =
  Def<A> extends { forwarded: infer S extends z.ZodType } ? z.output<S> : z.output<Def<A>['params']>;

/** What a driver answers for `A` (raw tab ids, element refs), before the daemon turns it into the result. */
export type DriverResult<A extends ForwardedAction> =
  Def<A> extends { driverResult: infer S extends z.ZodType } ? z.output<S> : z.output<Def<A>['result']>;

export const FORWARDED_ACTIONS = ACTION_NAMES.filter(
  (name): name is ForwardedAction => ACTIONS[name].routing !== 'local',
);

export function isForwardedAction(value: unknown): value is ForwardedAction {
  return isActionName(value) && ACTIONS[value].routing !== 'local';
}

/** Whether the action's result carries the session's notes (the actions addressed to a session). */
export function resultTakesNotes(action: ActionName): boolean {
  const result: z.ZodType = ACTIONS[action].result;
  return result instanceof z.ZodObject && 'notes' in result.shape;
}

/** The driver flags of a forwarded action. */
export function driverFlags(action: ForwardedAction): DriverFlags {
  return ACTIONS[action].driver;
}

export type DriverTab = z.infer<typeof DriverTabSchema>;
export type LinksDriverResult = z.infer<typeof LinksDriverResult>;
export type ElementsDriverResult = z.infer<typeof ElementsDriverResult>;
export type SnapshotDriverResult = z.infer<typeof SnapshotDriverResult>;
