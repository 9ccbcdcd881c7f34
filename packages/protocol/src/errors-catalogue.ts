/**
 * The error catalogue as plain data, with no zod import, so that code which must stay small (the page
 * bundle injected into web pages) can build catalogue errors. errors.ts re-exports everything here.
 */
/**
 * The one error catalogue. Every failure that crosses the wire carries one of these codes; the README's
 * error table is checked against this object by a test. Pairing-route codes are a separate contract
 * (see pairing/pairing.ts) and are deliberately absent here.
 */
export type ErrorCategory = 'auth' | 'validation' | 'transport' | 'policy' | 'target' | 'page' | 'internal';

export interface ErrorSpec {
  readonly category: ErrorCategory;
  /** Whether sending the same action again (with a new request id) may succeed without changing anything else. */
  readonly retry: boolean;
  /** The HTTP status the daemon answers with; null for a code only clients report (never on the wire). */
  readonly status: number | null;
  /** When the code is raised — the README's "When" column. */
  readonly when: string;
  /** What the caller should do next; surfaced by the CLI and MCP server. */
  readonly hint: string;
}

/**
 * The body of every failure: its code, the category, retry and hint the catalogue gives it, a message
 * for people. Written here without zod so that makeError stays plain; BproxyErrorSchema (errors.ts)
 * checks it on the wire, and a compile-time check there keeps the two the same shape.
 */
export interface BproxyError {
  code: ErrorCode;
  category: ErrorCategory;
  retry: boolean;
  message: string;
  hint?: string;
  /** HUMAN_REQUIRED: why the session is paused. */
  reason?: string;
  /** Extra structured facts (the failing field, the dialog that is open, …). Never secrets. */
  details?: Record<string, unknown>;
}

export const ERROR_CATALOGUE = {
  UNAUTHORIZED: {
    category: 'auth',
    retry: false,
    status: 401,
    when: 'The request failed the gate: Host, Origin, Sec-Fetch-Site or the route secret',
    hint: 'Use the token in BPROXY_HOME/token from the same machine and user; browsers pages cannot call the daemon',
  },
  BAD_REQUEST: {
    category: 'validation',
    retry: false,
    status: 400,
    when: 'The body is not JSON or does not match the schema (unknown fields, wrong types)',
    hint: 'Fix the field named in the message',
  },
  UNKNOWN_ACTION: {
    category: 'validation',
    retry: false,
    status: 400,
    when: 'The action name is not part of the protocol',
    hint: 'Run `bproxy --help` for the list of actions',
  },
  PAYLOAD_TOO_LARGE: {
    category: 'validation',
    retry: false,
    status: 413,
    when: 'The body exceeds the size limit',
    hint: 'Send a smaller request',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    category: 'validation',
    retry: false,
    status: 415,
    when: 'The body is not sent as application/json',
    hint: 'Send Content-Type: application/json',
  },
  REQUEST_ID_CONFLICT: {
    category: 'validation',
    retry: false,
    status: 409,
    when: 'A request id was reused with a different action, session or params',
    hint: 'Use a fresh request id for a new request',
  },
  ROUTE_NOT_FOUND: {
    category: 'validation',
    retry: false,
    status: 404,
    when: 'No route for this method and path',
    hint: 'POST / takes commands; GET /ws is for drivers; POST /pair/claim is for pairing',
  },
  NOT_PAIRED: {
    category: 'auth',
    retry: false,
    status: 409,
    when: 'The daemon has no active pairing to prove (before the first pairing, or after a reset)',
    hint: 'Pair the extension again: open its popup and enter the code `bproxy service start` printed',
  },
  NO_EXTENSION: {
    category: 'transport',
    retry: true,
    status: 502,
    when: 'No browser client is connected for this action',
    hint: 'Open the browser with the bproxy extension paired, or start the daemon with a CDP browser',
  },
  TIMEOUT: {
    category: 'transport',
    retry: true,
    status: 504,
    when: 'The deadline passed before the browser answered; the request will never run later',
    hint: 'Retry with a new request id and a later deadline (--timeout)',
  },
  OVERLOADED: {
    category: 'transport',
    retry: true,
    status: 503,
    when: 'The pending-request map is full (100 in flight)',
    hint: 'Wait for in-flight requests to finish, then retry',
  },
  SHUTTING_DOWN: {
    category: 'transport',
    retry: true,
    status: 503,
    when: 'The daemon is stopping and accepts no new requests',
    hint: 'Start the daemon again with `bproxy service start`',
  },
  BROWSER_DISCONNECTED: {
    category: 'transport',
    retry: true,
    status: 502,
    when: 'The browser serving this tab went away and did not come back before the deadline',
    hint: 'Check the browser; open a new tab with `bproxy tab open`',
  },
  BROWSER_UNAVAILABLE: {
    category: 'transport',
    retry: true,
    status: 503,
    when: 'No browser could be started: its launch failed, or a farm refused, queued or timed out',
    hint: 'Retry in a moment; the message says what the browser or the farm answered (a farm at its own limit refuses or queues: lower --cdp-max-browsers to match it)',
  },
  TOO_MANY_BROWSERS: {
    category: 'transport',
    retry: true,
    status: 429,
    when: 'All remote browsers the daemon may open (--cdp-max-browsers) are held by sessions',
    hint: 'Retry when another session has closed, or close one you no longer need (`bproxy -s ID session close`)',
  },
  SESSION_REQUIRED: {
    category: 'policy',
    retry: false,
    status: 400,
    when: 'A browser-control command was sent without a session (-s)',
    hint: 'Create one with `bproxy session create` or `bproxy tab open --url URL`, then pass -s ID',
  },
  HUMAN_REQUIRED: {
    category: 'policy',
    retry: false,
    status: 409,
    when: 'The session is paused: the page needs a human (CAPTCHA, login wall, challenge), or the user took it over',
    hint: 'Ask the user to solve it in the browser, then run `bproxy session resume -s ID`',
  },
  PACING_SET_BY_USER: {
    category: 'policy',
    retry: false,
    status: 403,
    when: 'The session is a tab the user shared: its pacing is their choice, and agents cannot change it',
    hint: 'Keep the pacing the session has; ask the user if it must change',
  },
  URL_NOT_ALLOWED: {
    category: 'policy',
    retry: false,
    status: 403,
    when: 'The URL is not http:, https: or about:blank (file: only in a launched browser started with --allow-file-urls)',
    hint: 'Open an http: or https: page; local files, data:, view-source:, javascript: and browser or extension pages are refused',
  },
  POLICY_DENIED: {
    category: 'policy',
    retry: false,
    status: 403,
    when: 'The site policy (policy.json) denies the origin a navigate, tab open, link, popup or redirect leads to ("ask" too), or --foreground',
    hint: 'Use another site; only a person can allow this one, in the side panel (Policy) or in policy.json',
  },
  APPROVAL_REQUIRED: {
    category: 'policy',
    retry: false,
    status: 409,
    when: 'A sensitive action (pay or submit, send, delete, upload, download, state export, a first visit) waits for a person: it was refused, not run, and is pending in the side panel',
    hint: 'Tell the user what waits; after they allow it in the side panel, retry the same action: it runs once (after a denial the retry is told so, and a later one asks again)',
  },
  FILE_NOT_FOUND: {
    category: 'validation',
    retry: false,
    status: 404,
    when: 'A file to read (upload, state load) does not exist, is not a regular file, or is over the size cap',
    hint: 'Check the path; it must name a regular file inside an allowed folder',
  },
  FILE_NOT_ACCEPTED: {
    category: 'page',
    retry: false,
    status: 409,
    when: 'The file input refuses these files: a type outside its accept, or several where it takes one',
    hint: 'Send files of the types the input accepts, one file unless it takes multiple',
  },
  DOWNLOAD_TOO_LARGE: {
    category: 'policy',
    retry: false,
    status: 413,
    when: "A download grew past the daemon's cap (100 MiB unless BPROXY_DOWNLOAD_MAX_BYTES says otherwise): it was stopped and its partial file removed",
    hint: 'Fetch a smaller file, or ask the user to raise the cap',
  },
  DOWNLOAD_TYPE_REFUSED: {
    category: 'policy',
    retry: false,
    status: 403,
    when: 'A download is a program or script by its name (.exe, .msi, .bat, .ps1, .sh, .dmg, .apk, .jar…): it was stopped and nothing kept',
    hint: 'Download documents and data, not programs',
  },
  NO_FILE_CHOOSER: {
    category: 'page',
    retry: true,
    status: 409,
    when: 'The element is not a file input and clicking it opened no file chooser',
    hint: 'Target the file input or the button that opens the chooser (`bproxy elements`)',
  },
  PATH_NOT_ALLOWED: {
    category: 'policy',
    retry: false,
    status: 403,
    when: "A file an agent names is outside the session's folder and the folders the user allowed (a `..` part, a link out, another folder); nothing was read or written",
    hint: "Use the session's folder (tmpDir of session create) or ask the user to allow the folder (files.json, service start --allow-files)",
  },
  STATE_NOT_ALLOWED: {
    category: 'policy',
    retry: false,
    status: 403,
    when: "Reading or exporting the cookies of the user's own Chrome, which the user has not allowed",
    hint: 'Ask the user; only they can allow it (BPROXY_HOME/user-chrome.json). A browser bproxy launches needs no permission',
  },
  SECRET_NOT_FOUND: {
    category: 'validation',
    retry: false,
    status: 404,
    when: 'fill --secret names a secret the user has not added (`bproxy secret list` shows the names)',
    hint: 'Use a name from `bproxy secret list`, or ask the user to add it: bproxy secret add NAME --origin ORIGIN',
  },
  SECRET_ORIGIN_MISMATCH: {
    category: 'policy',
    retry: false,
    status: 403,
    when: "fill --secret aimed at a field whose frame's origin is not the one the secret was added for; nothing was filled",
    hint: "Fill it only on the secret's own site (secret list shows its origin); the user sees the attempt",
  },
  SECRET_STORE_UNREADABLE: {
    category: 'policy',
    retry: false,
    status: 500,
    when: 'The secret store or its key could not be read or did not verify (unsafe file, tampered, key gone)',
    hint: 'Ask the user to run `bproxy doctor` and to add the secret again if the store was damaged',
  },
  STATE_FILE_INVALID: {
    category: 'validation',
    retry: false,
    status: 400,
    when: "The state file could not be read or is not Playwright's storage-state JSON",
    hint: 'Give a file written by `state save` or by Playwright (cookies and origins)',
  },
  DEBUGGER_DISABLED: {
    category: 'policy',
    retry: false,
    status: 403,
    when: 'The action needs the debugger and the driver has it disabled',
    hint: 'Enable debugger use in the extension, or use an action that does not need it',
  },
  INVALID_SESSION_ID: {
    category: 'target',
    retry: false,
    status: 400,
    when: 'The session id is not 6 (or, for a tab the user shared, 26) characters of a-z and 2-7',
    hint: 'Use the id printed by `bproxy session create`',
  },
  SESSION_NOT_FOUND: {
    category: 'target',
    retry: false,
    status: 404,
    when: 'The session id is not in the daemon registry (closed, or the daemon restarted)',
    hint: 'Create a new session; sessions do not survive a daemon restart',
  },
  TAB_NOT_FOUND: {
    category: 'target',
    retry: false,
    status: 404,
    when: 'The session has no bound tab, or its bound tab is gone',
    hint: 'Open a tab with `bproxy tab open -s ID --url URL` or bind one with `session bind --tab tN`',
  },
  TAB_HANDLE_NOT_FOUND: {
    category: 'target',
    retry: false,
    status: 404,
    when: 'The logical tab handle is not registered in any session',
    hint: "Run `bproxy tab list -s ID` for the session's tabs",
  },
  TAB_NOT_IN_SESSION: {
    category: 'target',
    retry: false,
    status: 403,
    when: 'The tab exists but belongs to another session',
    hint: 'Use a tab of your own session (`bproxy tab list -s ID`)',
  },
  BROWSER_NOT_FOUND: {
    category: 'target',
    retry: false,
    status: 404,
    when: 'No connected browser has the name given with --browser',
    hint: 'Run `bproxy debug status` for the connected browsers',
  },
  ELEMENT_HANDLE_NOT_FOUND: {
    category: 'target',
    retry: false,
    status: 404,
    when: 'The element handle is unknown, expired (120 s) or evicted',
    hint: 'Re-run the read action (elements, links or snapshot) and use the new handles',
  },
  ELEMENT_HANDLE_STALE: {
    category: 'target',
    retry: false,
    status: 409,
    when: 'The page navigated, or the element is gone or was replaced by a re-render, or the page identity is unknown',
    hint: 'The page changed: re-run elements, links or snapshot',
  },
  ELEMENT_HANDLE_SCOPE_MISMATCH: {
    category: 'target',
    retry: false,
    status: 409,
    when: 'The handle belongs to another tab of the same session',
    hint: 'Bind the tab the handle came from, or read the current tab again',
  },
  ELEMENT_NOT_FOUND: {
    category: 'page',
    retry: false,
    status: 404,
    when: 'No element matches the selector in the page',
    hint: 'Check the selector, or use `bproxy elements` to list what can be acted on',
  },
  ELEMENT_NOT_INTERACTABLE: {
    category: 'page',
    retry: true,
    status: 409,
    when: 'The element is hidden, disabled, detached or covered by another element',
    hint: 'Wait for it (`bproxy wait`), scroll, or close what covers it; the message says which',
  },
  NAVIGATION_FAILED: {
    category: 'page',
    retry: true,
    status: 502,
    when: 'The browser could not load the URL, or there is no history entry to go to',
    hint: 'Check the URL and the network',
  },
  PAGE_NOT_SCRIPTABLE: {
    category: 'page',
    retry: false,
    status: 403,
    when: 'The browser forbids scripts on this page (browser settings pages, extension galleries)',
    hint: 'Navigate to a web page first',
  },
  DIALOG_OPEN: {
    category: 'page',
    retry: false,
    status: 409,
    when: 'A JavaScript dialog (alert, confirm, prompt, beforeunload) is open in the tab',
    hint: 'Run `bproxy dialog accept` or `bproxy dialog dismiss`',
  },
  NO_DIALOG: {
    category: 'page',
    retry: false,
    status: 409,
    when: 'The dialog action was sent but no dialog is open',
    hint: 'Nothing to do',
  },
  WAIT_TIMEOUT: {
    category: 'page',
    retry: true,
    status: 408,
    when: 'The condition of a wait action did not hold within its timeout',
    hint: 'Wait longer (--timeout-ms) or check the condition',
  },
  REQUEST_NOT_FOUND: {
    category: 'target',
    retry: false,
    status: 404,
    when: 'network get named a request the tab does not have (or no longer keeps)',
    hint: 'List the requests with `bproxy network` and use an id it shows',
  },
  UNSUPPORTED_ACTION: {
    category: 'internal',
    retry: false,
    status: 501,
    when: 'The connected driver does not implement this action',
    hint: 'Use another browser client (`--browser`)',
  },
  DRIVER_ERROR: {
    category: 'internal',
    retry: true,
    status: 502,
    when: 'The browser driver failed unexpectedly or answered outside the protocol',
    hint: 'Retry; if it persists, see `bproxy debug last` and the daemon log',
  },
  PROTOCOL_MISMATCH: {
    category: 'internal',
    retry: false,
    status: 400,
    when: 'A driver connected with another PROTOCOL_VERSION',
    hint: 'Update the extension and the daemon to the same release',
  },
  VERSION_MISMATCH: {
    category: 'internal',
    retry: false,
    status: 409,
    when: 'The extension, the native host or the daemon met another part of a version it does not work with',
    hint: 'The message names the older part and its fix: `bproxy setup` (host), reload the extension, or `bproxy service stop && bproxy service start` (daemon)',
  },
  INTERNAL_ERROR: {
    category: 'internal',
    retry: true,
    status: 500,
    when: 'A bug in the daemon; it keeps serving',
    hint: 'Report it with the daemon log',
  },

  // Reported by the clients (CLI, MCP server) about their own side; the daemon never sends these.
  USAGE: {
    category: 'validation',
    retry: false,
    status: null,
    when: 'The command line is malformed (unknown option, missing argument); nothing was sent',
    hint: 'Run the command with --help for its usage',
  },
  NO_DAEMON: {
    category: 'transport',
    retry: true,
    status: null,
    when: 'No daemon runs for BPROXY_HOME, or the client could not start one',
    hint: 'Run `bproxy service start`',
  },
  DAEMON_UNREACHABLE: {
    category: 'transport',
    retry: true,
    status: null,
    when: "The daemon's port did not answer, or not in time; the request may still run",
    hint: 'Check `bproxy service status`, then `bproxy debug last`',
  },
  DAEMON_NOT_PROVEN: {
    category: 'auth',
    retry: false,
    status: null,
    when: "What listens on the daemon's port could not prove it holds BPROXY_HOME's daemon token; nothing was sent",
    hint: 'Another process may hold the port: check `bproxy service status`, then `bproxy service start`',
  },
  UNSAFE_STATE_FILE: {
    category: 'auth',
    retry: false,
    status: null,
    when: 'A state file or folder in BPROXY_HOME is a symlink, owned by another user or open to others',
    hint: 'Fix or remove the file or folder the message names, then try again',
  },
  BAD_RESPONSE: {
    category: 'internal',
    retry: false,
    status: null,
    when: "The daemon's answer is outside the protocol (client and daemon from different releases)",
    hint: 'Restart the daemon so that it matches the client',
  },
  LOCAL_ERROR: {
    category: 'internal',
    retry: false,
    status: null,
    when: 'The client failed on its own side (a file it could not write, an unexpected error)',
    hint: 'Read the message; the daemon was not involved',
  },

  // Reported by the in-browser agent (native host) about a chat; the daemon never sends these.
  AGENT_NOT_CONFIGURED: {
    category: 'validation',
    retry: false,
    status: null,
    when: 'The in-browser agent has no model provider configured, or its key is missing',
    hint: 'Run `bproxy agent config --provider NAME` (keys from stdin or an environment variable)',
  },
  MODEL_ERROR: {
    category: 'transport',
    retry: true,
    status: null,
    when: "The agent's model provider failed: refused the key, rate limited, unreachable or a broken stream",
    hint: 'Read the message; check the provider, model and key with `bproxy agent config`',
  },
  CHAT_QUEUE_FULL: {
    category: 'policy',
    retry: true,
    status: null,
    when: 'A chat already has 5 messages waiting behind its running turn',
    hint: 'Wait for the queued messages to run, or stop the chat',
  },
  TURN_LIMIT: {
    category: 'policy',
    retry: false,
    status: null,
    when: 'An agent turn reached its step cap and was ended',
    hint: 'Send a narrower request, or continue with a new message',
  },
  SENSITIVE_NAVIGATION: {
    category: 'policy',
    retry: false,
    status: null,
    when: "The agent refused to open another site with a URL carrying its notes' or files' text",
    hint: 'Do not send notes or files to a website; if the user wants that, they open the link themselves',
  },

  // Reported by the extension's worker to its side panel about the native host; the daemon never sends it.
  NO_NATIVE_HOST: {
    category: 'transport',
    retry: true,
    status: null,
    when: 'The extension could not reach its native host: not installed, not allowed, exited or silent',
    hint: 'Run `bproxy host install` (or `bproxy setup`), then check it with `bproxy host status`',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** What the catalogue tells a caller to do about a code. */
export function hintOf(code: ErrorCode): string {
  const spec: ErrorSpec = ERROR_CATALOGUE[code];
  return spec.hint;
}

/** Builds an error body whose category, retry and hint come from the catalogue, never from the caller. */
export function makeError(
  code: ErrorCode,
  message: string,
  extra: { reason?: string; details?: Record<string, unknown>; hint?: string } = {},
): BproxyError {
  const spec: ErrorSpec = ERROR_CATALOGUE[code];
  const hint = extra.hint ?? spec.hint;
  const error: BproxyError = { code, category: spec.category, retry: spec.retry, message, hint };
  if (extra.reason !== undefined) error.reason = extra.reason;
  if (extra.details !== undefined) error.details = extra.details;
  return error;
}
