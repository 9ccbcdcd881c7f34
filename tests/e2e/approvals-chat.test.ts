/**
 * Approvals in the side panel's Chat: the in-browser agent (the real native host, a scripted model
 * server) presses Place order on a checkout the user's policy asks about; the action is held, the chat
 * says in words under the tool call that it waits for the person's decision, and the approval shows
 * above the Chat view. After Allow once there, the agent's retry places the order exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startModelServer,
  type ModelServer,
  type RecordedRequest,
  type Reply,
} from '../../packages/agent/test/helpers/model-server';
import { expectNoChromiumLeft } from '../kit/chromium';
import { launchWithNativeHost, type NativeMachine } from '../kit/native-host';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { ASKING_POLICY, writePolicy } from '../kit/suites/approvals';
import { until } from '../kit/wait';

let machine: NativeMachine;
let pages: FixtureServer;
let model: ModelServer;

/** The user's newest message, and how many tool results followed it. */
function conversation(request: RecordedRequest): { text: string; toolResults: number } {
  const messages = request.body.messages as { role: string; content: unknown }[];
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') last = i;
  });
  const content = messages[last]?.content;
  const text = typeof content === 'string' ? content : JSON.stringify(content ?? '');
  return { text, toolResults: messages.slice(last + 1).filter((m) => m.role === 'tool').length };
}

function script(request: RecordedRequest): Reply {
  const { toolResults } = conversation(request);
  if (toolResults === 0)
    return { calls: [{ name: 'click', input: { target: { selector: '#pay button' } } }] };
  return { text: 'Done for now.' };
}

beforeAll(async () => {
  pages = await serveFixtures();
  model = await startModelServer();
  model.push(...Array.from({ length: 20 }, () => script));
  machine = await launchWithNativeHost('bproxy-e2e-approvals-chat-');
  await machine.connected();
  writePolicy(machine.cli.home, ASKING_POLICY);
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
  const dirs = [machine?.browser.userDataDir].filter((d): d is string => d !== undefined);
  await machine?.close();
  await model?.close();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

describe('approvals in the Chat', () => {
  it('says under the held tool call that it waits for the person, and runs the retry once after Allow once', async () => {
    const tab = await machine.browser.context.newPage();
    await tab.goto(pages.url('approvals-checkout.html'));
    const worker = await machine.browser.worker();
    const tabId = await worker.evaluate(async (u) => {
      const api = (
        globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }
      ).chrome;
      return (await api.tabs.query({ url: u }))[0]?.id ?? null;
    }, tab.url());
    if (tabId === null) throw new Error('no tab');
    const panel = await machine.browser.context.newPage();
    await panel.setViewportSize({ width: 400, height: 800 });
    await panel.goto(`chrome-extension://${machine.browser.extensionId}/panel.html?tab=${tabId}`);
    await panel.click('#tab-chat');
    await until('the agent settings', async () => (await panel.textContent('#chat-provider')) === 'openai');

    await panel.fill('#chat-input', 'Place the order');
    await panel.click('#chat-send');
    await until(
      'the held line in the chat',
      async () => (await panel.locator('.approval-notice').count()) === 1,
    );
    expect(await panel.textContent('.approval-notice')).toContain('Waiting for your decision');
    expect(await panel.locator('.tool.failed').count()).toBe(1);
    // The question shows above the Chat view, which stays open.
    await until('the approval card', () => panel.isVisible('#approvals li'));
    expect(await panel.isVisible('#view-chat')).toBe(true);
    expect(await tab.textContent('#orders')).toBe('0');

    await panel.click('#approvals button[data-decision="allow_once"]');
    await until('the card gone', () => panel.isHidden('#approvals'));
    await panel.fill('#chat-input', 'I allowed it, go on');
    await panel.click('#chat-send');
    await until('the order placed', async () => (await tab.textContent('#orders')) === '1', 30_000);
    await until('the turn done', async () => (await panel.locator('.tool.ok').count()) === 1);
    expect(await tab.textContent('#orders')).toBe('1');
    await panel.close();
    await tab.close();
  }, 90_000);
});
