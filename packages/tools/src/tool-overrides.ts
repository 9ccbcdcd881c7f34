/**
 * Where a tool differs from what the protocol gives by default, as data. By default every action is a
 * tool: named after the action ('.' → '_'), described by its summary, taking its params. An entry here
 * renames it, hides params the surface owns (the browser chosen at startup, the session's pacing),
 * makes optional params required, says a sentence a model needs more than the summary, or — `NO_TOOL`
 * — keeps an action away from models altogether.
 */
import type { ActionName } from '@bproxy/protocol';

export interface ToolOverride {
  readonly name?: string;
  /** Params set by the surface, never by the model. */
  readonly hide?: readonly string[];
  /** Optional params this tool requires. */
  readonly require?: readonly string[];
  readonly description?: string;
}

/** The action has no tool. */
export const NO_TOOL = 'no tool';

export const TOOL_OVERRIDES = {
  // The surface owns its session: it creates, lists and closes it, never a model.
  'session.create': NO_TOOL,
  'session.list': NO_TOOL,
  'session.unbind': NO_TOOL,
  'session.close': NO_TOOL,
  // Pinning is the user's arrangement of their browser; pairing and status are theirs too.
  'tab.pin': NO_TOOL,
  'tab.unpin': NO_TOOL,
  'pairing.issue': NO_TOOL,
  'debug.status': NO_TOOL,

  'tab.open': { hide: ['browser'], description: 'Open a tab (it becomes current)' },
  'tab.list': { description: 'List your tabs' },
  'session.bind': {
    name: 'tab_select',
    hide: ['pacing'],
    require: ['tab'],
    description: 'Make one of your tabs current',
  },
  'tab.close': { description: 'Close a tab (default: the current one)' },
  navigate: { description: 'Load an http(s) URL in the current tab (opens one when none is open)' },
  snapshot: {
    description: 'Outline with handles to act on; diff:true for changes only; long text via text',
  },
  text: { description: 'Visible text; capped, continue with offset' },
  fill: { description: 'Replace the value of a field (value, or secret: a saved one by name)' },
  type: { description: 'Type text key by key (into target, else the focus)' },
  'session.resume': { description: 'Resume after the user did what HUMAN_REQUIRED asked' },
  'debug.last': { description: 'Recent request traces (ids, errors, timings)' },
  batch: { description: 'Run several tools in order in one call; stops at the first failure' },
  pdf: { description: 'Save the page as PDF (session folder, or out in an allowed folder)' },
  upload: { description: "Set a file input's files, or answer the chooser target opens (allowed folders)" },
  // A device names its user agent, touch and mobile viewport; the CLI keeps the separate switches.
  emulate: {
    hide: ['mobile', 'userAgent', 'touch'],
    description: 'Emulate a device, viewport, position, time zone, locale, color scheme or network',
  },
  'cookies.set': { hide: ['httpOnly', 'sameSite'] },
} as const satisfies { readonly [A in ActionName]?: ToolOverride | typeof NO_TOOL };

/**
 * The order of tools/list, as a model reads it: tabs, navigation, reads, interactions, the hand-off,
 * diagnostics. A tool of an action not named here follows these, in the protocol's order.
 */
export const TOOL_ORDER: readonly ActionName[] = [
  'tab.open',
  'tab.list',
  'session.bind',
  'tab.close',
  'navigate',
  'back',
  'forward',
  'reload',
  'snapshot',
  'text',
  'elements',
  'links',
  'inspect',
  'click',
  'fill',
  'type',
  'press',
  'select',
  'hover',
  'scroll',
  'wait',
  'screenshot',
  'dialog',
  'session.resume',
  'batch',
  'debug.last',
  'debug.log',
];
