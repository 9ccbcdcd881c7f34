/**
 * What an activity entry says to a person, in words: "Clicked **Add Mug to cart**", "Read the page",
 * who acted ("CLI", "Terminal", "MCP · Claude Desktop", "Chat"), and an attempt refused while the
 * session waits for the person ("CLI is waiting: click on **Pay** refused, paused"). No handles
 * (el4), tab handles (t1), session ids or error codes: those are for agents. The element's name is
 * the one the agent's read gave it (`role "name"`), shown apart so the view can set it in bold.
 */
import { TAKE_OVER_REASON, type ActivityEntry, type RequestAgent } from '@bproxy/protocol';

/** A sentence in parts: plain text, and the element's name (set in bold). */
export type Words = readonly (string | { name: string })[];

const DONE: Record<string, [string, string]> = {
  // action: [what it did, what it tried (for refusals and failures)]
  click: ['Clicked', 'click on'],
  hover: ['Pointed at', 'point at'],
  fill: ['Filled in', 'fill in'],
  type: ['Typed into', 'type into'],
  press: ['Pressed a key in', 'press a key in'],
  select: ['Chose an option in', 'choose an option in'],
  upload: ['Attached a file to', 'attach a file to'],
  scroll: ['Scrolled', 'scroll'],
  navigate: ['Opened a page', 'open a page'],
  back: ['Went back', 'go back'],
  forward: ['Went forward', 'go forward'],
  reload: ['Reloaded the page', 'reload the page'],
  text: ['Read the page’s text', 'read the page’s text'],
  links: ['Read the page’s links', 'read the page’s links'],
  elements: ['Read the page’s controls', 'read the page’s controls'],
  inspect: ['Looked closely at', 'look closely at'],
  snapshot: ['Read the page', 'read the page'],
  screenshot: ['Took a screenshot', 'take a screenshot'],
  wait: ['Waited for the page', 'wait for the page'],
  dialog: ['Answered a dialog', 'answer a dialog'],
  batch: ['Ran several steps', 'run several steps'],
  pdf: ['Saved the page as PDF', 'save the page as PDF'],
  'tab.open': ['Opened a tab', 'open a tab'],
  'tab.close': ['Closed a tab', 'close a tab'],
  'tab.pin': ['Pinned a tab', 'pin a tab'],
  'tab.unpin': ['Unpinned a tab', 'unpin a tab'],
  'state.save': ['Saved the site’s sign-in state', 'save the site’s sign-in state'],
  'state.load': ['Loaded a sign-in state', 'load a sign-in state'],
  'cookies.list': ['Read cookies', 'read cookies'],
  'cookies.set': ['Set a cookie', 'set a cookie'],
  'cookies.clear': ['Cleared cookies', 'clear cookies'],
  emulate: ['Changed the device emulated', 'change the device emulated'],
  console: ['Read the console', 'read the console'],
  network: ['Read network requests', 'read network requests'],
  'network.get': ['Read a network request', 'read a network request'],
  'network.har': ['Saved network requests', 'save network requests'],
};

/** Actions whose target is an element: the sentence names it. */
const ON_ELEMENT = new Set([
  'click',
  'hover',
  'fill',
  'type',
  'press',
  'select',
  'upload',
  'inspect',
  'scroll',
  'screenshot',
]);

/** Who acted, for a person. */
export function agentWords(agent: RequestAgent | undefined): string {
  switch (agent?.kind) {
    case 'cli':
      return 'CLI';
    case 'terminal':
      return 'Terminal';
    case 'chat':
      return 'Chat';
    case 'mcp':
      return agent.name === undefined ? 'MCP client' : `MCP · ${agent.name}`;
    case undefined:
      return 'An agent';
  }
}

/** `role "name"` → the name (or, unnamed, "the role"). */
function elementOf(entry: ActivityEntry): Words {
  const called = entry.target?.name;
  if (entry.target === undefined) return [];
  if (called === undefined) return ['an element'];
  const match = /^([\w -]+?)(?: ("(?:[^"\\]|\\.)*"))?$/.exec(called);
  if (!match?.[1]) return [{ name: called }];
  if (match[2] === undefined) return [`a ${match[1]}`];
  try {
    const name: unknown = JSON.parse(match[2]);
    if (typeof name === 'string' && name !== '') return [{ name }];
  } catch {
    // fall through: shown as it came
  }
  return [`a ${match[1]}`];
}

function phrase(entry: ActivityEntry, form: 0 | 1): Words {
  const action = entry.action ?? 'action';
  const words = DONE[action];
  const verb = words?.[form] ?? (form === 0 ? `Ran ${action}` : action);
  const element = ON_ELEMENT.has(action) ? elementOf(entry) : [];
  return element.length === 0 ? [verb] : [`${verb} `, ...element];
}

/** An error's first line with the agents' handles put in words (el4, ln2, t1 mean nothing to people). */
function plain(message: string): string {
  return message
    .replace(/\b(?:el|ln)\d+\b/g, 'the element')
    .replace(/\bt\d+\b/g, 'the tab')
    .replace(/\bsession [a-z0-9]{6,}\b/g, 'the session');
}

/** What happened, and the line under it. */
export function entryWords(entry: ActivityEntry): { what: Words; detail: string } {
  const who = agentWords(entry.agent);
  switch (entry.kind) {
    case 'pause':
      // The take-over's reason is written for agents; the person reads what they did.
      return {
        what: ['Paused: waiting for you'],
        detail: entry.reason === TAKE_OVER_REASON ? 'You took over this tab.' : (entry.reason ?? ''),
      };
    case 'resume':
      return { what: ['Resumed'], detail: '' };
    case 'close':
      return { what: ['Session closed'], detail: '' };
    case 'action': {
      if (entry.error?.code === 'HUMAN_REQUIRED')
        return { what: [`${who} is waiting: `, ...phrase(entry, 1), ' refused, paused'], detail: '' };
      // Approvals: held, never run, until a person decides (or told that they denied it).
      if (entry.error?.code === 'APPROVAL_REQUIRED')
        return entry.error.message.startsWith('a person denied')
          ? { what: ['You denied: ', ...phrase(entry, 1)], detail: 'Not run.' }
          : {
              what: [`${who} asks you first: `, ...phrase(entry, 1)],
              detail:
                'Not run until you decide: Allow once, Always on this site or Deny, at the top of this panel.',
            };
      const waited =
        entry.waitedMs === undefined || entry.waitedMs < 100
          ? ''
          : `waited ${(entry.waitedMs / 1000).toFixed(1)} s to act at a person’s pace`;
      if (entry.error !== undefined)
        return {
          what: ['Could not ', ...phrase(entry, 1)],
          detail: [plain(entry.error.message), waited].filter((s) => s !== '').join(' · '),
        };
      return { what: phrase(entry, 0), detail: waited };
    }
  }
}
