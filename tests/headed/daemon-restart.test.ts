/**
 * A daemon restart mid-session, in the real side panel. The tab the user shared lost its session with
 * the daemon; when the daemon comes back the tab is shared again by itself (a new session) rather than
 * left for the user to notice; the debugger leaves the tab until an agent acts in it again (Chrome's
 * "started debugging this browser" bar goes with it). What the user was using goes on with the new
 * session: `bproxy` in the panel's terminal — started with the old session in BPROXY_SESSION — drives
 * the tab's session now, and the chat's next tool call acts in the new session, not the dead one — also
 * when the chat's message is what starts the daemon again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startModelServer,
  type ModelServer,
  type RecordedRequest,
  type Reply,
} from '../../packages/agent/test/helpers/model-server';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;
let model: ModelServer;

/** The scripted model: asked to look, it calls `snapshot` once, then says what the tool answered. */
function script(request: RecordedRequest): Reply {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') return { text: `looked: ${JSON.stringify(last.content).slice(0, 80)}` };
  return { text: 'Looking.', calls: [{ name: 'snapshot', input: {} }] };
}

beforeAll(async () => {
  pages = await serveFixtures();
  model = await startModelServer();
  model.push(...Array.from({ length: 20 }, () => script));
  machine = await launchHeaded('bproxy-headed-restart-', { BPROXY_TERMINAL_COMMAND: '/bin/sh' });
  await machine.connected();
  await machine.cli.ok([
    'agent',
    'config',
    '--provider',
    'openai',
    '--base-url',
    `${model.baseUrl}/v1`,
    '--fast',
    'model-fast',
    '--strong',
    'model-strong',
  ]);
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await model?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);

/** What the panel's terminal shows (xterm's DOM renderer: one element per row). */
const screen = (panel: DevtoolsTarget): Promise<string> =>
  panel.evaluate<string>(
    "[...document.querySelectorAll('#terminal-screen .xterm-rows > div')].map((r) => (r.textContent ?? '').trimEnd()).join('\\n')",
  );

/** Runs `line` in the panel's shell and answers its exit code, printed after a mark of its own. */
async function run(panel: DevtoolsTarget, line: string, mark: string): Promise<string> {
  await panel.click('#terminal-screen');
  await panel.type(`${line}; echo "${mark}=$?"\n`);
  const pattern = new RegExp(`^(?:# |\\$ )?${mark}=(\\d+)$`, 'm');
  return until(`${mark} in the terminal`, async () => pattern.exec(await screen(panel))?.[1], 30_000);
}

/**
 * Whether bproxy's own debugger is attached to the tab showing `url`: a command through it answers only
 * then (chrome.debugger.getTargets counts any client, Playwright's included).
 */
const debugged = (url: string): Promise<boolean> =>
  machine.inWorker(async (u) => {
    const api = (
      globalThis as unknown as {
        chrome: {
          tabs: { query(q: object): Promise<{ id?: number }[]> };
          debugger: { sendCommand(t: { tabId: number }, method: string, params: object): Promise<unknown> };
        };
      }
    ).chrome;
    const [tab] = await api.tabs.query({ url: u });
    if (tab?.id === undefined) return false;
    return api.debugger.sendCommand({ tabId: tab.id }, 'Runtime.evaluate', { expression: '1' }).then(
      () => true,
      () => false,
    );
  }, url);

/** The chat's tool calls shown in the panel, each as its state class (`ok`, `failed`, …). */
const toolStates = (panel: DevtoolsTarget): Promise<string[]> =>
  panel.evaluate<string[]>(
    "[...document.querySelectorAll('#chat-log-host details.tool')].map((d) => d.className)",
  );

async function chat(panel: DevtoolsTarget, message: string, calls: number): Promise<string[]> {
  await panel.click('#tab-chat');
  await panel.evaluate(
    `(() => { const i = document.getElementById('chat-input'); i.value = ${JSON.stringify(message)}; })()`,
  );
  await panel.click('#chat-send');
  return until(
    `tool call ${calls} to settle`,
    async () => {
      const states = await toolStates(panel);
      return states.length === calls && !states.some((s) => s.includes('running')) ? states : undefined;
    },
    30_000,
  );
}

describe('a daemon restart under the real side panel', () => {
  it('shares the tab again by itself, lets the debugger go, and the terminal and chat follow the new session', async () => {
    const url = pages.url('ext-form.html');
    const page = await machine.browser.context.newPage();
    await page.goto(url);
    await page.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await panel.click('#share');
    const first = await until('the session', async () => (await text(panel, 'session-id')) || undefined);
    expect(await chat(panel, 'look at the page', 1)).toEqual(['tool ok']);
    // The terminal's program starts with the tab's session in BPROXY_SESSION.
    await panel.click('#tab-terminal');
    expect(await run(panel, 'bproxy text >/dev/null', 'before')).toBe('0');
    const { elements } = await machine.cli.ok<{ elements: { handle: string; role: string }[] }>([
      'elements',
      '-s',
      first,
    ]);
    const field = elements.find((e) => e.role === 'textbox');
    if (field === undefined) throw new Error('no field on the form');
    await machine.cli.ok(['click', '-s', first, field.handle]);
    await until('the debugger on the shared tab', () => debugged(url));

    await machine.cli.ok(['service', 'stop']);
    await until('Start bproxy', () =>
      panel.evaluate<boolean>("!document.getElementById('start-daemon').hidden"),
    );
    await panel.click('#start-daemon');
    await until('connected again', async () => (await text(panel, 'status')) === 'connected', 30_000);
    const second = await until('the tab shared again', async () => {
      const shown = await text(panel, 'session-id');
      return shown !== '' && shown !== first ? shown : undefined;
    });
    // The tab is held again: no "Session lost" strip asks the user to share it.
    expect(await panel.evaluate<boolean>("document.getElementById('tab-free').hidden")).toBe(true);
    await until('the debugger to leave the tab', async () => !(await debugged(url)));

    // The shell still has the old id in BPROXY_SESSION: `bproxy` drives the tab's session now.
    expect(await run(panel, 'bproxy text >/dev/null', 'after')).toBe('0');
    expect(await run(panel, 'bproxy -s "$BPROXY_SESSION" text >/dev/null', 'named')).toBe('0');
    const { tabs } = await machine.cli.ok<{ tabs: { url: string }[] }>(['tab', 'list', '-s', second]);
    expect(tabs.map((t) => t.url)).toContain(url);

    // The chat's next tool call acts in the new session.
    expect(await chat(panel, 'look again', 2)).toEqual(['tool ok', 'tool ok']);

    // Down again, and the chat is what brings it back: the message goes to the tab's session after the
    // restart (asked for as it is sent), not the one the panel showed when it was typed.
    await machine.cli.ok(['service', 'stop']);
    await until('the panel to see bproxy down', () =>
      panel.evaluate<boolean>("!document.getElementById('start-daemon').hidden"),
    );
    expect(await chat(panel, 'look once more', 3)).toEqual(['tool ok', 'tool ok', 'tool ok']);
    const third = await until('the tab shared again', async () => {
      const shown = await text(panel, 'session-id');
      return shown !== '' && shown !== second ? shown : undefined;
    });
    expect(third).not.toBe(first);

    await panel.click('#close-session');
    await panel.click('#close-confirm-yes');
    await until(
      'the tab to be free',
      async () => (await text(panel, 'tab-free-text')) === 'No agent is working in this tab.',
    );
    panel.close();
    await page.close();
  });
});
