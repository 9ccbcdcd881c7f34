/**
 * The facts about each action, without zod: how the daemon routes it, its pacing class, whether it may
 * change the page, how a browser driver treats it, and the one-line summary every surface shows. The
 * daemon, both drivers, the page bundle, the CLI, the MCP server and the agent's tools all read these
 * (the page bundle and the daemon client through `@bproxy/protocol/plain`, so zod stays out of them).
 * The schemas of each action (params, result, their driver-side shapes) are in actions.ts, keyed by
 * exactly the same names: a compile error there says which one is missing.
 */

/** How the daemon treats an action. */
export type ActionRouting =
  /** Handled inside the daemon; never reaches a driver. */
  | 'local'
  /** Forwarded to the driver serving the session's bound tab. */
  | 'tab'
  /** Forwarded to a driver but not to a tab (tab.open, debug.log). */
  | 'client';

/**
 * The capability group an action belongs to. The CLI has every command whatever its group; an MCP
 * client is offered the `core` group by default and opts into the others, so that an agent pays only
 * for the tools it asked for.
 */
export type CapabilityGroup = 'core' | 'files' | 'state' | 'emulation' | 'network' | 'debug';

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
  /**
   * May start a navigation (a link click, Enter in a form, a page's own input or change handler) that
   * the driver follows before answering. The page script watches these for a navigation request.
   */
  readonly mayNavigate?: boolean;
  /** Changes the page: recorded in the page's own ledger by request id, so that a replay cannot act twice. */
  readonly pageLedger?: boolean;
}

interface ActionFactsBase {
  /** Whether the action may change the page (logged as `destructive`). */
  readonly destructive: boolean;
  readonly pacing?: PacingCategory;
  /** One line saying what the action does (CLI help, tool descriptions, docs). */
  readonly summary: string;
  /** Its capability group; `core` when not said. */
  readonly group?: CapabilityGroup;
}

/** Handled inside the daemon: no driver flags. */
export interface LocalActionFacts extends ActionFactsBase {
  readonly routing: 'local';
  readonly driver?: never;
}

/** Forwarded to a driver: every driver must handle it, as its flags say. */
export interface ForwardedActionFacts extends ActionFactsBase {
  readonly routing: Exclude<ActionRouting, 'local'>;
  readonly driver: DriverFlags;
}

export type ActionFacts = LocalActionFacts | ForwardedActionFacts;

export const ACTION_FACTS = {
  'session.create': { routing: 'local', destructive: false, summary: 'Create a session (returns its id)' },
  'session.list': { routing: 'local', destructive: false, summary: 'List sessions' },
  'session.bind': {
    routing: 'local',
    destructive: false,
    summary: 'Bind the session to one of its tabs and/or set its pacing',
  },
  'session.unbind': { routing: 'local', destructive: false, summary: 'Clear the tab binding (and a pause)' },
  'session.resume': { routing: 'local', destructive: false, summary: 'Resume a session paused for a human' },
  'session.close': { routing: 'local', destructive: true, summary: 'Close the session and its tabs' },

  'tab.open': {
    routing: 'client',
    destructive: true,
    pacing: 'navigate',
    driver: { startsBrowser: true, resumable: true },
    summary: 'Open a tab (creates and binds a session when none is given)',
  },
  'tab.close': {
    routing: 'tab',
    destructive: true,
    driver: { resumable: true, withDialog: true },
    summary: 'Close a tab of the session (default: the bound one)',
  },
  'tab.list': { routing: 'local', destructive: false, summary: "List the session's tabs" },
  'tab.pin': {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true, withDialog: true },
    summary: 'Pin a tab in the browser',
  },
  'tab.unpin': {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true, withDialog: true },
    summary: 'Unpin a tab',
  },

  navigate: {
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driver: { resumable: true },
    summary: 'Load an http(s) URL in the current tab (opens one when there is none)',
  },
  back: {
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driver: { resumable: false },
    summary: 'Go back in history',
  },
  forward: {
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driver: { resumable: false },
    summary: 'Go forward in history',
  },
  reload: {
    routing: 'tab',
    destructive: true,
    pacing: 'navigate',
    driver: { resumable: true },
    summary: 'Reload the page',
  },

  text: { routing: 'tab', destructive: false, driver: { resumable: true }, summary: 'Read the visible text' },
  links: {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true },
    summary: 'List links (mints ln handles)',
  },
  elements: {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true },
    summary: 'List actionable elements (mints el handles)',
  },
  inspect: {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true },
    summary: 'Describe one element',
  },
  snapshot: {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true },
    summary: 'Compact page outline for language models (mints handles)',
  },
  screenshot: {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true },
    summary: 'Capture the page as an image',
  },

  scroll: {
    routing: 'tab',
    destructive: false,
    pacing: 'scroll',
    driver: { resumable: true, pageLedger: true },
    summary: 'Scroll the page or an element',
  },
  click: {
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Click an element',
  },
  hover: {
    routing: 'tab',
    destructive: false,
    pacing: 'interaction',
    driver: { resumable: true, pageLedger: true, effects: true },
    summary: 'Move the pointer over an element',
  },
  fill: {
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    // Its input and change events run the page's own handlers, which may submit or navigate.
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Set the value of a field (fires input and change)',
  },
  type: {
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Type text key by key',
  },
  press: {
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Press a key (Enter, Control+A, …)',
  },
  select: {
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Choose options of a <select> by value or label',
  },
  wait: {
    routing: 'tab',
    destructive: false,
    driver: { resumable: true },
    summary: 'Wait for text (or its going), an element, a URL, the load, or a navigation',
  },
  dialog: {
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    driver: { resumable: true, withDialog: true },
    summary: 'Accept or dismiss the open JavaScript dialog',
  },

  batch: {
    routing: 'local',
    destructive: true,
    summary: 'Run several actions in order, stopping at the first failure',
  },
  upload: {
    routing: 'tab',
    destructive: true,
    pacing: 'fill',
    group: 'files',
    // Not run twice: a second run would click the element that opens the chooser again.
    driver: { resumable: false, effects: true, mayNavigate: true },
    summary: 'Set the files of a file input, or answer the chooser an element opens',
  },
  pdf: {
    routing: 'tab',
    destructive: false,
    group: 'files',
    driver: { resumable: true },
    summary: "Save the page as PDF in the session's folder (or --out)",
  },
  'state.save': {
    routing: 'tab',
    destructive: false,
    group: 'state',
    driver: { resumable: true },
    summary: 'Save cookies and localStorage to a file (Playwright format)',
  },
  'state.load': {
    routing: 'tab',
    destructive: true,
    group: 'state',
    driver: { resumable: true },
    summary: 'Load cookies and localStorage from a file',
  },
  'cookies.list': {
    routing: 'tab',
    destructive: false,
    group: 'state',
    driver: { resumable: true },
    summary: "List the current page's cookies",
  },
  'cookies.set': {
    routing: 'tab',
    destructive: true,
    group: 'state',
    driver: { resumable: true },
    summary: "Set a cookie for the current page's origin",
  },
  'cookies.clear': {
    routing: 'tab',
    destructive: true,
    group: 'state',
    driver: { resumable: true },
    summary: "Delete the current page's cookies (or one)",
  },
  emulate: {
    routing: 'tab',
    destructive: true,
    group: 'emulation',
    driver: { resumable: true },
    summary: 'Emulate a device, viewport, geolocation, timezone, locale, color scheme or network in this tab',
  },
  console: {
    routing: 'tab',
    destructive: false,
    group: 'debug',
    driver: { resumable: true },
    summary: 'Console messages and uncaught errors',
  },
  network: {
    routing: 'tab',
    destructive: false,
    group: 'network',
    driver: { resumable: true },
    summary: 'Requests, one line each',
  },
  'network.get': {
    routing: 'tab',
    destructive: false,
    group: 'network',
    driver: { resumable: true },
    summary: "A request's headers and body",
  },
  'network.har': {
    routing: 'tab',
    destructive: false,
    group: 'network',
    driver: { resumable: true },
    summary: 'Save the requests as HAR',
  },

  // Issue 23 §2, after the tools clients already hold (packages/tools/test/tools-list.json).
  drag: {
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    driver: { resumable: true, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Drag an element onto another, or to a point in it',
  },
  drop: {
    routing: 'tab',
    destructive: true,
    pacing: 'interaction',
    group: 'files',
    // A page that takes no drop opens the file: it may navigate.
    driver: { resumable: false, pageLedger: true, effects: true, mayNavigate: true },
    summary: 'Drop files onto an element (a drop zone)',
  },
  downloads: {
    routing: 'local',
    destructive: false,
    group: 'files',
    summary: "List the session's downloads",
  },
  'pairing.issue': {
    routing: 'local',
    destructive: false,
    summary: 'Issue a fresh one-time pairing code for the extension (retires the previous one)',
  },

  'debug.last': {
    routing: 'local',
    destructive: false,
    group: 'debug',
    summary: 'Last request traces (ring of 200)',
  },
  'debug.status': {
    routing: 'local',
    destructive: false,
    group: 'debug',
    summary: 'Daemon, browsers and sessions at a glance',
  },
  'debug.log': {
    routing: 'client',
    destructive: false,
    group: 'debug',
    driver: { resumable: true },
    summary: "The browser driver's own recent log",
  },
} as const satisfies Record<string, ActionFacts>;

export type ActionName = keyof typeof ACTION_FACTS;

/** The facts of one action, as the wide type (every field readable). */
export function actionFacts(action: ActionName): ActionFacts {
  return ACTION_FACTS[action];
}

/** The capability group of an action (`core` unless its facts name another). */
export function actionGroup(action: ActionName): CapabilityGroup {
  return actionFacts(action).group ?? 'core';
}

/** The actions a browser driver may see start a navigation it must follow (the `mayNavigate` flag). */
export function mayNavigate(action: string): boolean {
  if (!Object.prototype.hasOwnProperty.call(ACTION_FACTS, action)) return false;
  const facts: ActionFacts = ACTION_FACTS[action as ActionName];
  return facts.driver?.mayNavigate === true;
}
