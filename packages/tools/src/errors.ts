/**
 * Failures as tool results: `isError: true` and text an agent can act on — `CODE: message`, the
 * reason a session is paused, and one "What to do" line. The catalogue's hints speak CLI (`bproxy …
 * -s ID`); here they are said with the tools' names, and sessions are never mentioned by id because
 * the surface (MCP server, agent loop) owns the session.
 */
import type { ErrorCode } from '@bproxy/protocol';

/** A daemon error, or a local one (no daemon, a bad answer): what a failed call becomes. */
export interface ToolError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly hint?: string;
  readonly reason?: string;
}

/** A tool result: text, and image blocks for screenshots (MCP's content shape; an agent loop reads it as is). */
export interface ToolReply {
  [key: string]: unknown;
  content: ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[];
  isError?: boolean;
}

export const TOOL_HINTS: Readonly<Partial<Record<ErrorCode, string>>> = {
  BAD_REQUEST: 'Fix the argument named in the message and call again',
  UNKNOWN_ACTION: 'Call tools/list for the tools of this server',
  SESSION_REQUIRED: 'Call navigate with a url first',
  SESSION_NOT_FOUND: 'Your tabs are gone (the daemon restarted); call navigate to start again',
  TAB_NOT_FOUND: 'Call navigate with a url (it opens a tab), or tab_select one of tab_list',
  TAB_HANDLE_NOT_FOUND: 'Call tab_list for your tabs',
  TAB_NOT_IN_SESSION: 'Use one of your own tabs (tab_list)',
  BROWSER_NOT_FOUND: 'Check the --browser name given to `bproxy mcp` (`bproxy debug status` lists browsers)',
  ELEMENT_HANDLE_NOT_FOUND:
    'Handles expire and are replaced by each read: call snapshot and use the new handles',
  ELEMENT_HANDLE_STALE: 'The page changed: call snapshot and use the new handles',
  ELEMENT_HANDLE_SCOPE_MISMATCH: 'The handle is from another tab: tab_select that tab, or snapshot this one',
  ELEMENT_NOT_FOUND: 'Call snapshot or elements to find what can be acted on',
  ELEMENT_NOT_INTERACTABLE:
    'Wait for it (wait), scroll to it, or close what covers it; the message says which',
  DIALOG_OPEN: 'Answer it with the dialog tool (accept true or false)',
  NO_DIALOG: 'Nothing to answer; go on',
  WAIT_TIMEOUT: 'Check the condition, or wait longer (timeoutMs)',
  NAVIGATION_FAILED: 'Check the URL; the page may be unreachable from this machine',
  TIMEOUT: 'Call again; if it keeps failing, debug_last (debug group) shows what is slow',
  HUMAN_REQUIRED:
    'Tell the user what the page needs (reason above) and ask them to do it in the browser, then call session_resume. In the headless browser nobody can: tell the user to run `bproxy mcp --browser NAME` with their paired Chrome',
  NO_EXTENSION: 'No browser is available: start the daemon with a browser, or pair the extension',
  BROWSER_DISCONNECTED: 'The browser went away; call tab_open to open a new tab',
  BROWSER_UNAVAILABLE:
    'No browser could be had just now (the message says why): call again in a moment; if it keeps failing, tell the user',
  TOO_MANY_BROWSERS:
    'Every remote browser is in use by other sessions: call again in a minute, or tell the user the cap is reached',
};

/** A failure the surface found itself (bad arguments, an unknown tool): its own hint is the right one. */
export function localError(code: ErrorCode, message: string, hint: string): ToolReply {
  return errorReply({ code, message, hint }, false);
}

export function errorReply(error: ToolError, toolHint = true): ToolReply {
  const lines = [`${error.code}: ${error.message}`];
  if (error.reason !== undefined && error.reason !== '' && !error.message.includes(error.reason))
    lines.push(`Reason: ${error.reason}`);
  const hint = (toolHint ? TOOL_HINTS[error.code] : undefined) ?? error.hint;
  if (hint !== undefined) lines.push(`What to do: ${hint}`);
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}

export function textReply(text: string): ToolReply {
  return { content: [{ type: 'text', text }] };
}
