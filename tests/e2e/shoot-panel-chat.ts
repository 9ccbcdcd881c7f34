/**
 * Takes docs/screenshots/panel-chat.png: the Chat view at side-panel size (400×800) after a realistic
 * conversation, on the same real parts as the chat tests (native host, daemon, headless Chromium, a
 * scripted model on 127.0.0.1). Run after a build: `node --import tsx tests/e2e/shoot-panel-chat.ts`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startModelServer,
  type Reply,
  type RecordedRequest,
} from '../../packages/agent/test/helpers/model-server';
import { serveFixtures } from '../kit/pages';
import { ROOT } from '../kit/paths';
import { until } from '../kit/wait';
import { launchWithNativeHost } from '../kit/native-host';

function toolResults(request: RecordedRequest): { text: string; count: number } {
  const messages = request.body.messages as { role: string; content: unknown }[];
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') last = i;
  });
  const content = messages[last]?.content;
  return {
    text: typeof content === 'string' ? content : JSON.stringify(content),
    count: messages.slice(last + 1).filter((m) => m.role === 'tool').length,
  };
}

function script(request: RecordedRequest): Reply {
  const { text, count } = toolResults(request);
  if (/order/i.test(text)) {
    if (count === 0)
      return { text: 'Let me look at the form first.', calls: [{ name: 'snapshot', input: {} }] };
    if (count === 1)
      return {
        calls: [
          { name: 'fill', input: { target: { selector: '#name' }, value: 'Grace Hopper' } },
          { name: 'fill', input: { target: { selector: '#notes' }, value: 'gift wrap, please' } },
          { name: 'select', input: { target: { selector: '#size' }, values: ['m'] } },
        ],
      };
    if (count === 4) return { calls: [{ name: 'click', input: { target: { selector: '#send' } } }] };
    return {
      text: [
        'Done — the order is **sent**:',
        '',
        '- Name: `Grace Hopper`',
        '- Size: *Medium*',
        '- Notes: gift wrap, please',
        '',
        'The page now shows the confirmation.',
      ].join('\n'),
    };
  }
  if (count === 0) return { calls: [{ name: 'text', input: {} }] };
  return {
    text: [
      '### Confirmation',
      'The page says **Done** and repeats what was sent in its address:',
      '',
      '1. `name=Grace+Hopper`',
      '2. `notes=gift+wrap%2C+please`',
      '3. `size=m`',
      '',
      'Nothing asks for payment yet; a link leads back to the form.',
    ].join('\n'),
  };
}

const pages = await serveFixtures();
const model = await startModelServer();
model.push(...Array.from({ length: 50 }, () => script));
const machine = await launchWithNativeHost('bproxy-shot-chat-');
try {
  await machine.connected();
  await machine.cli.ok([
    'agent',
    'config',
    '--provider',
    'openai',
    '--base-url',
    `${model.baseUrl}/v1`,
    '--fast',
    'gpt-4.1-mini',
    '--strong',
    'gpt-4.1',
  ]);
  const tab = await machine.browser.context.newPage();
  await tab.goto(pages.url('ext-form.html'));
  const worker = await machine.browser.worker();
  const tabId = await worker.evaluate(async (u) => {
    const api = (
      globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }
    ).chrome;
    return (await api.tabs.query({ url: u }))[0]?.id ?? 0;
  }, tab.url());
  const panel = await machine.browser.context.newPage();
  await panel.setViewportSize({ width: 400, height: 800 });
  await panel.goto(`chrome-extension://${machine.browser.extensionId}/panel.html?tab=${tabId}`);
  await panel.click('#tab-chat');
  await until('the settings', async () => (await panel.textContent('#chat-provider')) === 'openai');
  const answers = (n: number) =>
    until(`${n} answers`, async () => (await panel.locator('.bubble.agent').count()) >= n, 30_000);

  await panel.fill('#chat-input', 'Order a medium for Grace Hopper, gift wrapped, and send it');
  await panel.click('#chat-send');
  await until('the order to be sent', () => tab.url().includes('ext-done.html'), 30_000);
  await answers(2);
  await panel.fill('#chat-input', 'What does the confirmation page say?');
  await panel.click('#chat-send');
  await answers(3);
  await until('the turn to end', () => panel.isDisabled('#chat-stop'));
  await panel.$eval('#chat-log-host', (log) => log.scrollTo(0, log.scrollHeight));
  await panel.fill('#chat-input', 'Now check the counter page');
  const out = join(ROOT, 'docs', 'screenshots');
  mkdirSync(out, { recursive: true });
  await panel.screenshot({ path: join(out, 'panel-chat.png') });
  console.error(`[shot] ${join(out, 'panel-chat.png')}`);
} finally {
  await machine.close();
  await model.close();
  await pages.close();
}
