/**
 * The browser tools: bproxy actions from the one catalogue (@bproxy/tools), run through the daemon
 * client in the session of the tab the user shared, so pacing, the paused state, handles and every
 * gate apply as they do for an outside agent. A call is the catalogue's one `runTool` (arguments
 * checked, the result checked and rendered as its one-line reply); this file keeps the agent's policy:
 * which tools, the shared tab's session and its own words for some errors. The catalogue's replies
 * already hold the page's text (titles, snapshots, dialog messages, console lines) in the one
 * untrusted-data fence (@bproxy/tools' untrusted.ts), with bproxy's own words outside it.
 *
 * Hidden here (an outside agent has them): `session_resume`, because a pause is the user's to end in
 * their own tab, not the agent's; `debug_last`, whose traces cover every session of the daemon, not
 * only this one; `debug_log`, the driver's log, which is bproxy's diagnostics, not the user's task;
 * `batch`, whose steps could name the tools hidden here: the agent calls tools one at a time; and
 * `upload` and `drop`, because a page steering this agent could have it hand the page a file from an
 * allowed folder — until each such action asks the user first, they are not offered.
 */
import { settleAnswer, type Answer } from '@bproxy/client';
import {
  TOOLS_BY_NAME,
  buildTools,
  runTool,
  type ToolAction,
  type ToolDefinition,
  type ToolError,
} from '@bproxy/tools';
import { unfenced } from './exfiltration';
import { failure, firstLine, replyImage, replyText, type ToolRun } from './tool-result';

/** The one method of the daemon client the agent uses (DaemonClient fits; tests may pass their own). */
export interface ActionCaller {
  call(
    action: string,
    params: Record<string, unknown>,
    options: { session?: string; timeoutMs?: number },
  ): Promise<Answer>;
}

export const HIDDEN_BROWSER_TOOLS: ReadonlySet<string> = new Set([
  'session_resume',
  'debug_last',
  'debug_log',
  'drop',
  'batch',
  'upload',
]);

/** Reads whose reply is the page itself: the panel gets their size, not their text. */
const READS = new Set(['snapshot', 'text', 'elements', 'links', 'inspect', 'tab_list', 'screenshot']);

/** Hints for this surface where the catalogue's tool hints speak to an outside agent. */
const AGENT_HINTS: Partial<Record<ToolError['code'], string>> = {
  HUMAN_REQUIRED:
    'Stop here and tell the user what the page needs (the reason above): they do it in their tab and resume the session from bproxy. Do not retry until then.',
  APPROVAL_REQUIRED:
    'The user sees this action waiting in the side panel: tell them in one line what waits, and stop. Retry the same action only after they say they allowed it.',
  SESSION_NOT_FOUND:
    "The shared tab's session is gone (bproxy restarted, or the user ended it): tell the user to share the tab again",
  TAB_NOT_FOUND: 'The shared tab is gone: navigate opens a new one, or ask the user to share a tab again',
};

export function browserToolDefinitions(): ToolDefinition[] {
  return buildTools().filter((tool) => !HIDDEN_BROWSER_TOOLS.has(tool.name));
}

export function isBrowserTool(name: string): boolean {
  return TOOLS_BY_NAME.has(name) && !HIDDEN_BROWSER_TOOLS.has(name);
}

export async function runBrowserTool(
  caller: ActionCaller,
  name: string,
  args: Record<string, unknown>,
  session: string,
): Promise<ToolRun> {
  if (!isBrowserTool(name)) return failure('UNKNOWN_ACTION', `UNKNOWN_ACTION: no tool named "${name}"`);
  const send = ({ tool, params, timeoutMs }: ToolAction) =>
    settleAnswer(caller.call(tool.action, params, { session, timeoutMs }));
  const result = await runTool(name, args, send, { hints: AGENT_HINTS });
  if (!result.ok) return failure(result.code, replyText(result.reply), result.reason);
  const text = replyText(result.reply);
  const image = replyImage(result.reply);
  return {
    ok: true,
    content: text === '' ? `${name}: done` : text,
    summary: image === undefined ? panelSummary(name, true, text) : `${name}: an image`,
    ...(image === undefined ? {} : { image }),
  };
}

/** The panel's line for a browser tool's reply: a read's size (never the page), else the reply's first line (not a fence's). */
export function panelSummary(name: string, ok: boolean, text: string): string {
  return ok && READS.has(name) ? `${name}: ${text.length} characters` : firstLine(unfenced(text));
}
