/**
 * The MCP servers compared by `npm run bench:peers`, each described once: how to start it (same
 * Chromium binary, headless, no sandbox, a throwaway profile) and which of its tools do the four
 * things measured — load a URL, read the page, click an element named by the read, read a counter.
 */
import { join } from 'node:path';
import { agentBrowserModes, bproxyModes, type TaskMode } from './peers-tasks';

export interface PeerServer {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Extra arguments with which the server offers every tool it has (its opt-in groups), listed apart. */
  readonly fullArgs?: readonly string[];
  /** The task replay's read modes (bench/peers-tasks.ts); none: the server is not replayed. */
  readonly taskModes?: readonly TaskMode[];
  /** The first navigation (bproxy opens its tab with it). */
  open(url: string): ToolCall;
  navigate(url: string): ToolCall;
  snapshot(): ToolCall;
  /** The handle of the element on the snapshot line matching `line`, as this server names it. */
  refOn(snapshot: string, line: RegExp): string | undefined;
  click(ref: string): ToolCall;
  /** Reads the text of #count. */
  count(): ToolCall;
  /** Answers an open JavaScript dialog (absent: the server never leaves one open). */
  dismissDialog?: () => ToolCall;
  /** Counts the handles a snapshot offers (how many elements an agent can address). */
  handles(snapshot: string): number;
}

export interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, arguments: args });
const COUNT_JS = "() => document.getElementById('count').textContent";

function refIn(snapshot: string, line: RegExp, ref: RegExp): string | undefined {
  const hit = snapshot.split('\n').find((l) => line.test(l));
  return hit?.match(ref)?.[1];
}

const count = (text: string, re: RegExp): number => text.match(re)?.length ?? 0;

export function peerServers(root: string, chrome: string, cliArgs: { bproxyHome: string }): PeerServer[] {
  const bin = (path: string) => join(root, 'node_modules', path);
  return [
    {
      name: 'bproxy',
      command: process.execPath,
      // fast pacing: the peers have no pacing, and the comparison is about the machinery.
      args: [join(root, 'packages', 'cli', 'bin', 'bproxy.mjs'), 'mcp', '--pacing', 'fast'],
      env: {
        BPROXY_HOME: cliArgs.bproxyHome,
        BPROXY_PORT: '0',
        CHROME_PATH: chrome,
        BPROXY_LOG_LEVEL: 'warn',
      },
      open: (url) => call('tab_open', { url }),
      navigate: (url) => call('navigate', { url }),
      // The whole outline, as the peers return theirs (bproxy's default caps it at 12 000 characters).
      snapshot: () => call('snapshot', { maxChars: 1_000_000 }),
      refOn: (s, line) => refIn(s, line, /\[(el\d+)\]/),
      click: (ref) => call('click', { target: ref }),
      count: () => call('text', { target: { selector: '#count' } }),
      dismissDialog: () => call('dialog', { accept: true }),
      handles: (s) => count(s, /\[(?:el|ln)\d+\]/g),
      taskModes: bproxyModes(),
    },
    {
      name: '@playwright/mcp',
      command: process.execPath,
      args: [
        bin('@playwright/mcp/cli.js'),
        '--headless',
        '--isolated',
        '--no-sandbox',
        '--executable-path',
        chrome,
      ],
      // Every opt-in capability its documentation lists.
      fullArgs: ['--caps=vision,pdf,devtools,config,network,storage,testing'],
      open: (url) => call('browser_navigate', { url }),
      navigate: (url) => call('browser_navigate', { url }),
      snapshot: () => call('browser_snapshot'),
      refOn: (s, line) => refIn(s, line, /\[ref=(\w+)\]/),
      click: (ref) => call('browser_click', { target: ref, element: 'Increment button' }),
      count: () => call('browser_evaluate', { function: COUNT_JS }),
      dismissDialog: () => call('browser_handle_dialog', { accept: true }),
      handles: (s) => count(s, /\[ref=\w+\]/g),
    },
    {
      name: 'chrome-devtools-mcp',
      command: process.execPath,
      args: [
        bin('chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
        '--headless',
        '--isolated',
        '--executablePath',
        chrome,
        '--chromeArg=--no-sandbox',
        '--usageStatistics=false',
        '--performanceCrux=false',
        '--no-page-id-routing',
      ],
      env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
      // The opt-in categories and tool sets that need nothing from the page (WebMCP ones do).
      fullArgs: ['--categoryExtensions', '--categoryPwa', '--experimentalVision', '--memoryDebugging'],
      open: (url) => call('navigate_page', { type: 'url', url }),
      navigate: (url) => call('navigate_page', { type: 'url', url }),
      snapshot: () => call('take_snapshot'),
      refOn: (s, line) => refIn(s, line, /uid=(\S+)/),
      click: (ref) => call('click', { uid: ref }),
      count: () => call('evaluate_script', { function: COUNT_JS }),
      dismissDialog: () => call('handle_dialog', { action: 'accept' }),
      handles: (s) => count(s, /uid=\S+/g),
    },
    {
      name: 'agent-browser',
      command: bin('agent-browser/bin/agent-browser-linux-x64'),
      args: ['mcp'],
      // Offline: Debian's Chromium, and no check of the Chrome version against Google's list.
      env: {
        AGENT_BROWSER_EXECUTABLE_PATH: chrome,
        AGENT_BROWSER_ARGS: '--no-sandbox',
        AGENT_BROWSER_NO_VERSION_CHECK: '1',
      },
      fullArgs: ['--tools', 'all'],
      taskModes: agentBrowserModes(),
      open: (url) => call('agent_browser_open', { url }),
      navigate: (url) => call('agent_browser_open', { url }),
      snapshot: () => call('agent_browser_snapshot'),
      refOn: (s, line) => refIn(s, line, /ref=(e\d+)/),
      click: (ref) => call('agent_browser_click', { selector: `@${ref}` }),
      count: () => call('agent_browser_get_text', { selector: '#count' }),
      handles: (s) => count(s, /ref=e\d+/g),
    },
  ];
}
