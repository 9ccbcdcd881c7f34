/**
 * The side panel's Chat end to end: real headless Chromium with the built extension, the real native
 * host registered as a user installs it (it pairs the browser and runs the agent), the real daemon,
 * and a scripted model server on 127.0.0.1 speaking OpenAI's streaming chat completions (configured
 * with `bproxy agent config`). The panel page is opened as a tab for one of the user's tabs. The agent
 * fills and sends a real form in that tab through tool calls; two tabs chat at once without seeing each
 * other; Stop ends a running turn; the sixth message behind a running one is refused in the UI;
 * action-like messages go to the fast model and questions to the strong one; a reopened panel shows the
 * chat again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  startModelServer,
  type ModelServer,
  type Reply,
  type RecordedRequest,
  type TrickleProgress,
} from '../../packages/agent/test/helpers/model-server';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { launchWithNativeHost, type NativeMachine } from '../kit/native-host';
import { expectNoChromiumLeft } from '../kit/chromium';
import { allowClasses } from '../kit/allow-classes';

let machine: NativeMachine;
let pages: FixtureServer;
let model: ModelServer;

interface Message {
  role: string;
  content: unknown;
}

/** The user's newest message in a request, and how many tool results followed it. */
function conversation(request: RecordedRequest): { text: string; toolResults: number } {
  const messages = request.body.messages as Message[];
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') last = i;
  });
  const content = messages[last]?.content;
  const text = typeof content === 'string' ? content : JSON.stringify(content ?? '');
  return { text, toolResults: messages.slice(last + 1).filter((m) => m.role === 'tool').length };
}

/** A hostile answer: 24 KB of stray emphasis markers, streamed 4 characters at a time. */
const HOSTILE = '*a '.repeat(8_000);
const hostile: TrickleProgress = { sent: 0, total: 0, closedAt: null };

/** What the scripted model does, by what the user asked. */
function script(request: RecordedRequest): Reply {
  const { text, toolResults } = conversation(request);
  if (/hostile stream/i.test(text)) return { trickle: HOSTILE, piece: 4, everyMs: 1, progress: hostile };
  if (/fill the order form/i.test(text)) {
    if (toolResults === 0)
      return { text: 'Let me look at the form.', calls: [{ name: 'snapshot', input: {} }] };
    if (toolResults === 1)
      return {
        calls: [
          { name: 'fill', input: { target: { selector: '#name' }, value: 'Ada' } },
          { name: 'select', input: { target: { selector: '#size' }, values: ['l'] } },
        ],
      };
    if (toolResults === 3) return { calls: [{ name: 'click', input: { target: { selector: '#send' } } }] };
    return {
      text: [
        '## Sent',
        'I filled **Name** with `Ada`, chose *Large* and pressed Send.',
        '',
        '- <img src=x onerror="document.title=\'pwned\'">',
        "- [details](javascript:document.title='pwned') and [the form](https://example.com/form)",
      ].join('\n'),
    };
  }
  if (/\bwait\b/i.test(text)) return { hang: true, text: 'Working on it' };
  return { text: `Answer to "${text.slice(0, 60)}" from ${String(request.body.model)}` };
}

beforeAll(async () => {
  pages = await serveFixtures();
  model = await startModelServer();
  model.push(...Array.from({ length: 200 }, () => script));
  machine = await launchWithNativeHost('bproxy-e2e-chat-');
  await machine.connected();
  // The agent presses the form's "Send" in the user's Chrome: the person allowed send (approvals).
  allowClasses(machine.cli.home, ['send']);
}, 120_000);

afterAll(async () => {
  const dirs = [machine?.browser.userDataDir].filter((d): d is string => d !== undefined);
  await machine?.close();
  await model?.close();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

/** A user's tab showing `page`, and its raw id as the extension knows it. */
async function userTab(page: string): Promise<{ tab: Page; tabId: number }> {
  const tab = await machine.browser.context.newPage();
  await tab.goto(pages.url(page));
  const worker = await machine.browser.worker();
  const url = tab.url();
  const tabId = await worker.evaluate(async (u) => {
    const api = (
      globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }
    ).chrome;
    const [found] = await api.tabs.query({ url: u });
    return found?.id ?? null;
  }, url);
  if (tabId === null) throw new Error(`no tab shows ${url}`);
  return { tab, tabId };
}

/** Whether the agent has a model: the first test configures it; run alone, a later test does. */
let configured = false;

/** The panel page for one tab, at side-panel size, on its Chat view. */
async function chatPanel(tabId: number): Promise<Page> {
  if (!configured) await configureAgent();
  const panel = await machine.browser.context.newPage();
  await panel.setViewportSize({ width: 400, height: 800 });
  await panel.goto(`chrome-extension://${machine.browser.extensionId}/panel.html?tab=${tabId}`);
  await panel.click('#tab-chat');
  await until('the agent settings', async () => (await panel.textContent('#chat-provider')) === 'openai');
  return panel;
}

async function send(panel: Page, text: string): Promise<void> {
  await panel.fill('#chat-input', text);
  await panel.click('#chat-send');
}

/** Sends and waits until the host took the message (its bubble is no longer pending). */
async function sendTaken(panel: Page, text: string): Promise<void> {
  const before = await panel.locator('.bubble.user').count();
  await send(panel, text);
  await until('the host to take the message', async () => {
    const bubbles = panel.locator('.bubble.user');
    return (
      (await bubbles.count()) === before + 1 && (await panel.locator('.bubble.user.pending').count()) === 0
    );
  });
}

const agentTexts = (panel: Page) => panel.$$eval('.bubble.agent', (b) => b.map((x) => x.textContent ?? ''));
const logText = async (panel: Page) => (await panel.textContent('#chat-log-host')) ?? '';

/** Points the agent at the scripted model server, as a user would. */
async function configureAgent(): Promise<void> {
  configured = true;
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
}

// The tests run in order: the first configures the agent the others use (run alone, one configures it).
describe('chat in the side panel', () => {
  it('says to run `bproxy agent config` while the agent has no model, and chats once it has one', async () => {
    const { tab, tabId } = await userTab('ext-counter.html');
    const panel = await machine.browser.context.newPage();
    await panel.goto(`chrome-extension://${machine.browser.extensionId}/panel.html?tab=${tabId}`);
    await panel.click('#tab-chat');
    await until('the setup hint', () => panel.isVisible('#chat-setup'));
    expect(await panel.textContent('#chat-setup')).toContain('bproxy agent config');
    expect(await panel.textContent('#chat-provider')).toBe('not configured');
    await send(panel, 'hello');
    await until('the refusal', async () => (await logText(panel)).includes('AGENT_NOT_CONFIGURED'));

    await configureAgent();
    await send(panel, 'hello again');
    await until('an answer', async () => (await agentTexts(panel)).some((t) => /hello again/.test(t)));
    await until('the setup hint to go', () => panel.isHidden('#chat-setup'));
    await panel.close();
    const fresh = await chatPanel(tabId);
    expect(await fresh.isHidden('#chat-setup')).toBe(true);
    await fresh.close();
    await tab.close();
  }, 60_000);

  it('completes a multi-step task in the tab: the first message shares it, the form is really sent', async () => {
    const { tab, tabId } = await userTab('ext-form.html');
    const panel = await chatPanel(tabId);
    const asked = model.requests.length;
    await send(panel, 'Fill the order form for Ada, size large, and send it');
    expect(await panel.locator('.bubble.user').allTextContents()).toEqual([
      'Fill the order form for Ada, size large, and send it',
    ]);

    await until('the page to be sent', () => tab.url().includes('ext-done.html'), 45_000);
    expect(new URL(tab.url()).searchParams.get('name')).toBe('Ada');
    expect(new URL(tab.url()).searchParams.get('size')).toBe('l');
    await until(
      'the final answer',
      async () => (await agentTexts(panel)).some((t) => t.startsWith('Sent') && t.endsWith('the form')),
      20_000,
    );
    expect(await panel.$$eval('.tool .tool-name', (n) => n.map((x) => x.textContent))).toEqual([
      'snapshot',
      'fill',
      'select',
      'click',
    ]);
    expect(await panel.locator('.tool.ok').count()).toBe(4);
    expect(await panel.textContent('#session-id')).toMatch(/^[a-z0-9]+$/);

    // The answer is Markdown rendered safely: structure yes, markup from the model no.
    const answer = panel.locator('.bubble.agent').last();
    expect(await answer.locator('h2').textContent()).toBe('Sent');
    expect(await answer.locator('strong').textContent()).toBe('Name');
    expect(await answer.locator('code').textContent()).toBe('Ada');
    expect(await answer.locator('li').first().textContent()).toBe(
      '<img src=x onerror="document.title=\'pwned\'">',
    );
    expect(await panel.locator('#chat-log-host img, #chat-log-host script').count()).toBe(0);
    expect(
      await answer
        .locator('a')
        .evaluateAll((a) => a.map((x) => [x.getAttribute('href'), x.getAttribute('rel')])),
    ).toEqual([['https://example.com/form', 'noopener noreferrer']]);
    expect(await panel.title()).toBe('bproxy');
    // An action-like message went to the fast model.
    expect(model.requests.slice(asked).map((r) => r.body.model)).toEqual(Array(4).fill('model-fast'));

    // Reopened, the panel shows the chat again from the host's transcript.
    await panel.close();
    const again = await chatPanel(tabId);
    await until('the transcript', async () => (await again.locator('.tool').count()) === 4);
    expect(await again.locator('.bubble.user').allTextContents()).toEqual([
      'Fill the order form for Ada, size large, and send it',
    ]);
    expect((await agentTexts(again)).at(-1)).toMatch(/^Sent/);
    expect(await again.locator('#chat-log-host img').count()).toBe(0);
    await again.close();
    await tab.close();
  }, 90_000);

  it('routes questions to the strong model, actions to the fast one, obeys a per-message choice and the tool switches', async () => {
    const { tab, tabId } = await userTab('ext-counter.html');
    const panel = await chatPanel(tabId);
    const answers = async (n: number) =>
      until(`${n} answers`, async () => {
        const texts = await agentTexts(panel);
        // Streamed in pieces: the answer is whole once it names its model.
        return texts.length >= n && /from model-\w+$/.test(texts[n - 1] ?? '') ? texts : undefined;
      });
    await send(panel, 'Why is this page here? Summarize it.');
    expect((await answers(1))[0]).toMatch(/from model-strong$/);
    await send(panel, 'click the button');
    expect((await answers(2))[1]).toMatch(/from model-fast$/);
    await panel.selectOption('#chat-model', 'strong');
    await send(panel, 'click the button again');
    expect((await answers(3))[2]).toMatch(/from model-strong$/);

    // Settings: a tool switched off in the panel is no longer offered to the model.
    await panel.click('#chat-settings summary');
    await panel.uncheck('#chat-tools input[name="navigate"]');
    await panel.click('#chat-settings-form button[type="submit"]');
    await until(
      'the settings saved',
      async () => (await panel.textContent('#chat-settings-message')) === 'Saved.',
    );
    expect(await panel.inputValue('#chat-fast')).toBe('model-fast');
    const asked = model.requests.length;
    await send(panel, 'click it once more');
    await answers(4);
    const offered = (model.requests[asked]?.body.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(offered).toContain('click');
    expect(offered).not.toContain('navigate');
    await panel.close();
    await tab.close();
  }, 60_000);

  it('runs two tabs at once without mixing them, and Stop ends the running turn', async () => {
    const a = await userTab('ext-form.html');
    const b = await userTab('ext-counter.html');
    const panelA = await chatPanel(a.tabId);
    const panelB = await chatPanel(b.tabId);
    await send(panelA, 'wait for me in tab A');
    await until('tab A to run', async () => !(await panelA.isDisabled('#chat-stop')));
    await send(panelB, 'hello from tab B');
    await until('tab B to answer', async () =>
      (await agentTexts(panelB)).some((t) => /hello from tab B/.test(t)),
    );
    // Tab A's turn still runs while tab B's finished: they ran at the same time.
    expect(await panelA.isDisabled('#chat-stop')).toBe(false);
    expect(await panelA.textContent('#chat-queue')).toMatch(/^Working/);
    expect(await logText(panelA)).not.toContain('tab B');
    expect(await logText(panelB)).not.toContain('tab A');
    expect(await logText(panelB)).not.toContain('Working on it');

    await panelA.click('#chat-stop');
    await model.hungUp();
    await until('the turn to stop', async () => (await logText(panelA)).includes('Stopped.'));
    await until('Stop to be disabled', () => panelA.isDisabled('#chat-stop'));
    expect(await panelA.isHidden('#chat-queue')).toBe(true);
    await Promise.all([panelA.close(), panelB.close(), a.tab.close(), b.tab.close()]);
  }, 60_000);

  it('keeps Stop working while a hostile answer streams in thousands of 4-character pieces', async () => {
    const { tab, tabId } = await userTab('ext-counter.html');
    const panel = await chatPanel(tabId);
    await send(panel, 'a hostile stream, please');
    // The panel keeps up: half the answer shows while the model still streams the rest (re-rendering
    // the whole answer on every piece, it fell minutes behind).
    await until(
      'half the answer to show while it still streams',
      async () => {
        const shown = (await agentTexts(panel)).at(-1) ?? '';
        if (hostile.total > 0 && hostile.sent >= hostile.total) throw new Error('the stream ended first');
        return shown.length >= HOSTILE.length / 2;
      },
      30_000,
    );
    expect(await panel.isDisabled('#chat-stop')).toBe(false);
    await panel.click('#chat-stop');
    // Stop reaches the model mid-stream, and the panel, which kept up, says so at once.
    await until('the model stream to be closed', () => hostile.closedAt !== null);
    expect(hostile.sent).toBeLessThan(hostile.total);
    await until('the turn to stop', async () => (await logText(panel)).includes('Stopped.'));
    await until('Stop to be disabled', () => panel.isDisabled('#chat-stop'));
    const shown = (await agentTexts(panel)).at(-1) ?? '';
    expect(HOSTILE.startsWith(shown)).toBe(true);
    expect(shown.length).toBeLessThan(HOSTILE.length);
    expect(await panel.locator('.bubble.agent').last().locator('*').count()).toBe(1);
    await panel.close();
    await tab.close();
  }, 60_000);

  it('queues five messages behind a running one and refuses a sixth in the UI', async () => {
    const { tab, tabId } = await userTab('ext-form.html');
    const panel = await chatPanel(tabId);
    await sendTaken(panel, 'wait here');
    await until('the turn to run', async () => !(await panel.isDisabled('#chat-stop')));
    for (let i = 1; i <= 5; i++) await sendTaken(panel, `queued message ${i}`);
    await until('five waiting', async () => /5 waiting/.test((await panel.textContent('#chat-queue')) ?? ''));
    await send(panel, 'one too many');
    await until('the refusal', async () => (await panel.locator('.bubble.user.refused').count()) === 1);
    expect(await panel.locator('.bubble.user.refused').textContent()).toBe('one too many');
    expect(await logText(panel)).toContain('Not queued: 5 messages already wait in this chat');
    await panel.click('#chat-stop');
    await until('the queue to empty', () => panel.isHidden('#chat-queue'));
    expect(await panel.locator('.bubble.user').count()).toBe(7);
    await panel.close();
    await tab.close();
  }, 60_000);
});
