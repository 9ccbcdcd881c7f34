import { z } from 'zod';
import {
  ACTION_FACTS,
  type ActionName,
  type ForwardedActionFacts,
  type LocalActionFacts,
  type DriverFlags,
} from './action-facts';
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
  ForwardedScreenshotParams,
  ScreenshotDriverResult,
  ScreenshotResult,
} from './schemas/reads';
import {
  ClickParams,
  HoverParams,
  FillParams,
  ForwardedFillParams,
  TypeParams,
  PressParams,
  SelectParams,
  SelectResult,
  SelectDriverResult,
  ScrollParams,
  ScrollResult,
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
import { BatchParams, BatchResult } from './schemas/batch';
import { ForwardedWaitParams, WaitParams, WaitResult } from './schemas/wait';
import {
  DebugLastParams,
  DebugLastResult,
  DebugStatusResult,
  DebugLogParams,
  DebugLogResult,
  PairingIssueParams,
  PairingIssueResult,
} from './schemas/debug';
import {
  UploadParams,
  UploadForwarded,
  UploadResult,
  UploadDriverResult,
  PdfParams,
  PdfForwarded,
  PdfResult,
  PdfDriverResult,
} from './schemas/files';
import { DownloadsParams, DownloadsResult } from './schemas/downloads';
import {
  DragForwarded,
  DragParams,
  DropDriverResult,
  DropForwarded,
  DropParams,
  DropResult,
} from './schemas/drag';
import {
  CookiesClearParams,
  CookiesClearResult,
  CookiesListResult,
  CookiesSetParams,
  CookiesSetResult,
  EmulateParams,
  EmulateResult,
  StateFileParams,
  StateLoadDriverResult,
  StateLoadForwarded,
  StateLoadResult,
  StateSaveResult,
  StorageStateSchema,
} from './schemas/state';
export * from './schemas/state';
export * from './devices';
import {
  ConsoleParams,
  ConsoleResult,
  NetworkParams,
  NetworkResult,
  NetworkGetParams,
  NetworkGetForwarded,
  NetworkGetDriverResult,
  NetworkGetResult,
  NetworkHarParams,
  NetworkHarForwarded,
  NetworkHarDriverResult,
  NetworkHarResult,
} from './schemas/observe';
import { DiffResultShape } from './schemas/diff';
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
export { BATCH_ACTIONS, BATCH_MAX_STEPS, batchStepId, NOT_IN_BATCH } from './schemas/batch';
export {
  BODY_INLINE_CHARS,
  BODY_MAX_BYTES,
  CONSOLE_LEVELS,
  NetworkRequestIdSchema,
  NetworkRecordSchema,
  type ConsoleLevel,
  type NetworkRecord,
} from './schemas/observe';
export {
  HANDLES_PER_READ,
  SNAPSHOT_REF_OPEN,
  SNAPSHOT_REF_CLOSE,
  LONG_TEXT_RUNS,
  LONG_TEXT_MAX,
  SNAPSHOT_FRAME_OPEN,
  SNAPSHOT_FRAME_CLOSE,
} from './snapshot-refs';

/**
 * Params and results of every action, beside its facts (routing, pacing, driver flags, summary: the
 * zod-free table in action-facts.ts, which `ACTIONS` merges in). Three shapes per action where they differ:
 * - `params`: what an agent sends in POST / (handles, logical tabs);
 * - `forwarded`: what a driver receives (handles resolved to ElementTarget); absent for daemon-local actions;
 * - `driverResult`: what a driver answers (refs, raw tab ids); the daemon turns it into `result`.
 */

/** The zod-side shapes of a daemon-local action: no driver-side shapes. */
interface LocalActionSchemas {
  readonly params: z.ZodType;
  readonly result: z.ZodType;
  readonly forwarded?: never;
  readonly driverResult?: never;
}

/** The zod-side shapes of an action forwarded to a driver. */
interface ForwardedActionSchemas {
  readonly params: z.ZodType;
  readonly result: z.ZodType;
  /** The driver-side params when they differ from `params` (handles resolved). */
  readonly forwarded?: z.ZodType;
  /** The driver-side result when it differs from `result`. */
  readonly driverResult?: z.ZodType;
}

/**
 * What each action's schemas must be: a local action has no driver-side shapes. `SCHEMAS` satisfies
 * it, so an action with facts and no schemas, or schemas and no facts, is a compile error.
 */
type SchemasOf = {
  readonly [A in ActionName]: (typeof ACTION_FACTS)[A]['routing'] extends 'local'
    ? LocalActionSchemas
    : ForwardedActionSchemas;
};

type LocalActionDef = LocalActionFacts & LocalActionSchemas;
type ForwardedActionDef = ForwardedActionFacts & ForwardedActionSchemas;
type ActionDef = LocalActionDef | ForwardedActionDef;

const withForwardedTarget = <T extends z.ZodRawShape>(shape: T, optional: boolean) =>
  z.strictObject({ ...shape, target: optional ? ForwardedScope : ElementTargetSchema });

/** The result of an action addressed to a session: the daemon may add the session's notes to it. */
const noted = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) => schema.extend(NotesShape);

/** The result of an acting action that takes `diff`: the snapshot diff its effect left, when asked. */
const diffed = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) => noted(schema).extend(DiffResultShape);

const SCHEMAS = {
  'session.create': {
    params: SessionCreateParams,
    result: SessionCreateResult,
  },
  'session.list': {
    params: Empty,
    result: z.strictObject({ sessions: z.array(SessionInfoSchema) }),
  },
  'session.bind': {
    params: SessionBindParams,
    result: noted(SessionInfoSchema),
  },
  'session.unbind': {
    params: Empty,
    result: noted(SessionInfoSchema),
  },
  'session.resume': {
    params: Empty,
    result: noted(SessionInfoSchema),
  },
  'session.close': {
    params: Empty,
    result: SessionCloseResult,
  },

  'tab.open': {
    params: TabOpenParams,
    result: noted(TabInfoSchema),
    forwarded: TabOpenForwarded,
    driverResult: DriverTabSchema,
  },
  'tab.close': {
    params: TabParams,
    result: noted(TabCloseResult),
    forwarded: Empty,
    driverResult: z.strictObject({ closed: z.boolean() }),
  },
  'tab.list': {
    params: Empty,
    result: noted(z.strictObject({ tabs: z.array(TabInfoSchema) })),
  },
  'tab.pin': {
    params: TabParams,
    result: noted(TabInfoSchema),
    forwarded: Empty,
    driverResult: DriverTabSchema,
  },
  'tab.unpin': {
    params: TabParams,
    result: noted(TabInfoSchema),
    forwarded: Empty,
    driverResult: DriverTabSchema,
  },

  navigate: {
    params: NavigateParams,
    result: noted(NavigateResult),
    driverResult: PageStateSchema,
  },
  back: {
    params: HistoryParams,
    result: noted(PageStateSchema),
    driverResult: PageStateSchema,
  },
  forward: {
    params: HistoryParams,
    result: noted(PageStateSchema),
    driverResult: PageStateSchema,
  },
  reload: {
    params: HistoryParams,
    result: noted(PageStateSchema),
    driverResult: PageStateSchema,
  },

  text: {
    params: TextParams,
    result: noted(TextResult),
    forwarded: withForwardedTarget(TextParams.shape, true),
    driverResult: TextResult,
  },
  links: {
    params: LinksParams,
    result: noted(LinksResult),
    forwarded: withForwardedTarget(LinksParams.shape, true),
    driverResult: LinksDriverResult,
  },
  elements: {
    params: ElementsParams,
    result: noted(ElementsResult),
    forwarded: withForwardedTarget(ElementsParams.shape, true),
    driverResult: ElementsDriverResult,
  },
  inspect: {
    params: InspectParams,
    result: noted(InspectResult),
    // `approval` is the daemon's own (approvals): the answer then carries `sensitive`. Its Enter read
    // may name no target: the page reads the focused element (an agent's inspect always names one).
    forwarded: withForwardedTarget(
      { ...InspectParams.shape, approval: z.enum(['click', 'enter']).optional() },
      true,
    ),
    driverResult: InspectResult,
  },
  snapshot: {
    params: SnapshotParams,
    result: noted(SnapshotResult),
    // `inView` is the daemon's own (screenshot --annotate): only the refs of the elements in view.
    forwarded: withForwardedTarget({ ...SnapshotParams.shape, inView: z.boolean().optional() }, true),
    driverResult: SnapshotDriverResult,
  },
  screenshot: {
    params: ScreenshotParams,
    result: noted(ScreenshotResult),
    forwarded: ForwardedScreenshotParams,
    driverResult: ScreenshotDriverResult,
  },

  scroll: {
    params: ScrollParams,
    result: noted(ScrollResult),
    forwarded: withForwardedTarget(ScrollParams.shape, true),
    driverResult: ScrollResult,
  },
  click: {
    params: ClickParams,
    result: diffed(InputEffectsSchema),
    forwarded: withForwardedTarget(ClickParams.shape, false),
    driverResult: DriverInputEffectsSchema,
  },
  hover: {
    params: HoverParams,
    result: noted(InputEffectsSchema),
    forwarded: withForwardedTarget(HoverParams.shape, false),
    driverResult: DriverInputEffectsSchema,
  },
  drag: {
    params: DragParams,
    result: diffed(InputEffectsSchema),
    forwarded: DragForwarded,
    driverResult: DriverInputEffectsSchema,
  },
  fill: {
    params: FillParams,
    result: diffed(EffectsSchema),
    forwarded: ForwardedFillParams,
    driverResult: DriverEffectsSchema,
  },
  type: {
    params: TypeParams,
    result: diffed(InputEffectsSchema),
    forwarded: withForwardedTarget(TypeParams.shape, true),
    driverResult: DriverInputEffectsSchema,
  },
  press: {
    params: PressParams,
    result: diffed(InputEffectsSchema),
    forwarded: withForwardedTarget(PressParams.shape, true),
    driverResult: DriverInputEffectsSchema,
  },
  select: {
    params: SelectParams,
    result: diffed(SelectResult),
    forwarded: withForwardedTarget(SelectParams.shape, false),
    driverResult: SelectDriverResult,
  },
  wait: {
    params: WaitParams,
    result: noted(WaitResult),
    forwarded: ForwardedWaitParams,
    driverResult: WaitResult,
  },
  dialog: {
    params: DialogParams,
    result: noted(DialogResult),
    driverResult: DialogResult,
  },

  batch: {
    params: BatchParams,
    result: BatchResult,
  },
  upload: {
    params: UploadParams,
    result: noted(UploadResult),
    forwarded: UploadForwarded,
    driverResult: UploadDriverResult,
  },
  drop: {
    params: DropParams,
    result: noted(DropResult),
    forwarded: DropForwarded,
    driverResult: DropDriverResult,
  },
  downloads: {
    params: DownloadsParams,
    result: noted(DownloadsResult),
  },
  pdf: {
    params: PdfParams,
    result: noted(PdfResult),
    forwarded: PdfForwarded,
    driverResult: PdfDriverResult,
  },
  'state.save': {
    params: StateFileParams,
    result: noted(StateSaveResult),
    forwarded: Empty,
    driverResult: StorageStateSchema,
  },
  'state.load': {
    params: StateFileParams,
    result: noted(StateLoadResult),
    forwarded: StateLoadForwarded,
    driverResult: StateLoadDriverResult,
  },
  'cookies.list': {
    params: Empty,
    result: noted(CookiesListResult),
    driverResult: CookiesListResult,
  },
  'cookies.set': {
    params: CookiesSetParams,
    result: noted(CookiesSetResult),
    driverResult: CookiesSetResult,
  },
  'cookies.clear': {
    params: CookiesClearParams,
    result: noted(CookiesClearResult),
    driverResult: CookiesClearResult,
  },
  emulate: {
    params: EmulateParams,
    result: noted(EmulateResult),
    driverResult: EmulateResult,
  },
  console: {
    params: ConsoleParams,
    result: noted(ConsoleResult),
    driverResult: ConsoleResult,
  },
  network: {
    params: NetworkParams,
    result: noted(NetworkResult),
    driverResult: NetworkResult,
  },
  'network.get': {
    params: NetworkGetParams,
    result: noted(NetworkGetResult),
    forwarded: NetworkGetForwarded,
    driverResult: NetworkGetDriverResult,
  },
  'network.har': {
    params: NetworkHarParams,
    result: noted(NetworkHarResult),
    forwarded: NetworkHarForwarded,
    driverResult: NetworkHarDriverResult,
  },

  'pairing.issue': {
    params: PairingIssueParams,
    result: PairingIssueResult,
  },

  'debug.last': {
    params: DebugLastParams,
    result: DebugLastResult,
  },
  'debug.status': {
    params: Empty,
    result: DebugStatusResult,
  },
  'debug.log': {
    params: DebugLogParams,
    result: noted(DebugLogResult),
    driverResult: DebugLogResult,
  },
} as const satisfies SchemasOf;

/** Each action's facts (action-facts.ts) and its schemas, in one entry; the keys are the facts' order. */
type Actions = { readonly [A in ActionName]: (typeof ACTION_FACTS)[A] & (typeof SCHEMAS)[A] };

export const ACTION_NAMES = Object.keys(ACTION_FACTS) as [ActionName, ...ActionName[]];

export const ACTIONS: Actions = Object.fromEntries(
  ACTION_NAMES.map((name) => [name, { ...ACTION_FACTS[name], ...SCHEMAS[name] }]),
) as Actions;

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

/** Whether the action's result names the downloads it started (the results built on EffectsSchema). */
export function resultNamesDownloads(action: ActionName): boolean {
  const result: z.ZodType = ACTIONS[action].result;
  return result instanceof z.ZodObject && 'downloads' in result.shape;
}

/** The driver flags of a forwarded action. */
export function driverFlags(action: ForwardedAction): DriverFlags {
  return ACTIONS[action].driver;
}

export type DriverTab = z.infer<typeof DriverTabSchema>;
export type LinksDriverResult = z.infer<typeof LinksDriverResult>;
export type ElementsDriverResult = z.infer<typeof ElementsDriverResult>;
export type SnapshotDriverResult = z.infer<typeof SnapshotDriverResult>;
