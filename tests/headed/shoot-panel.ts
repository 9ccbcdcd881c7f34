/**
 * Takes docs/screenshots/*.png from the real side panel and popup of a headed Chromium on a virtual
 * screen (tests/kit/headed.ts), opened by real clicks as a person opens them, in states staged with the
 * real parts (native host, daemon, CLI, a scripted model on 127.0.0.1): `npm run screenshots` runs it
 * after a build (`node --import tsx tests/headed/shoot-panel.ts`).
 *
 * - panel-activity.png: a shop tab shared, the CLI's read and click in words, the person took over
 *   and the CLI's next click was refused;
 * - panel-chat.png: the chat filled and sent a form, then answered a question;
 * - panel-terminal.png: a shell in the Terminal, whose `bproxy` reads the tab;
 * - popup-shared.png: the popup on a shared tab, with the command line it hands out.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  startModelServer,
  type Reply,
  type RecordedRequest,
} from '../../packages/agent/test/helpers/model-server';
import { allowClasses } from '../kit/allow-classes';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded } from '../kit/headed';
import { handleOf } from '../kit/mcp';
import { serveFixtures } from '../kit/pages';
import { ROOT } from '../kit/paths';
import { until } from '../kit/wait';

const out = join(ROOT, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const shoot = async (target: DevtoolsTarget, name: string): Promise<void> => {
  writeFileSync(join(out, name), await target.screenshot());
  console.error(`[shot] docs/screenshots/${name}`);
};
const text = (target: DevtoolsTarget, id: string): Promise<string> =>
  target.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);

/** The scripted model: fills and sends the order form, then tells what the confirmation says. */
function script(request: RecordedRequest): Reply {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const last = messages.map((m) => m.role).lastIndexOf('user');
  const asked = JSON.stringify(messages[last]?.content ?? '');
  const results = messages.slice(last + 1).filter((m) => m.role === 'tool').length;
  if (/order/i.test(asked)) {
    if (results === 0)
      return { text: 'Let me look at the form first.', calls: [{ name: 'snapshot', input: {} }] };
    if (results === 1)
      return {
        calls: [
          { name: 'fill', input: { target: { selector: '#name' }, value: 'Grace Hopper' } },
          { name: 'select', input: { target: { selector: '#size' }, values: ['m'] } },
        ],
      };
    if (results === 3) return { calls: [{ name: 'click', input: { target: { selector: '#send' } } }] };
    return { text: 'Done — the order is **sent** for `Grace Hopper`, size *Medium*.' };
  }
  if (results === 0) return { calls: [{ name: 'text', input: {} }] };
  return { text: 'The page says **Done** and repeats what was sent: name, size and notes.' };
}

const pages = await serveFixtures();
const model = await startModelServer();
model.push(...Array.from({ length: 50 }, () => script));
const machine = await launchHeaded('bproxy-shot-', { BPROXY_TERMINAL_COMMAND: '/bin/sh' });
try {
  await machine.connected();
  // The agent presses the order form's "Send": the person allowed send (approvals).
  allowClasses(machine.cli.home, ['send']);

  // Activity: the CLI reads and clicks in a shared shop tab; the person takes over; a refused click.
  const shop = await machine.browser.context.newPage();
  await shop.goto(pages.url('shop.html'));
  await shop.bringToFront();
  const { target: panel } = await machine.openSidePanel();
  await until('connected', async () => (await text(panel, 'status')) === 'connected');
  await panel.click('#share');
  await until('shared', async () => (await text(panel, 'session-id')) !== '');
  const session = await text(panel, 'session-id');
  // The one-time note on Chrome's debugging bar, read and put away, as a person does.
  await panel.click('#debug-note-ok');
  const read = await machine.cli.ok<{ snapshot: string }>(['snapshot', '-s', session]);
  await machine.cli.ok(['click', handleOf(read.snapshot, /Add mug to cart/), '-s', session]);
  await machine.cli.ok(['click', handleOf(read.snapshot, /Add teapot to cart/), '-s', session]);
  await panel.click('#take-over');
  await until('taken over', async () => (await text(panel, 'session-state')) === 'paused');
  await machine.cli.fail(['click', handleOf(read.snapshot, /Add mug to cart/), '-s', session]);
  await until('the refusal', async () => (await text(panel, 'feed')).includes('refused'));
  await shoot(panel, 'panel-activity.png');

  // The popup on the shared tab: the line it hands out.
  const popup = await machine.openPopup();
  await until('the line', async () => (await text(popup, 'shared-line')) !== '');
  await shoot(popup, 'popup-shared.png');
  popup.close();

  // Chat: a form filled and sent, then a question answered.
  await panel.click('#resume');
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
  const form = await machine.browser.context.newPage();
  await form.goto(pages.url('ext-form.html'));
  await form.bringToFront();
  await panel.click('#tab-chat');
  await until('the settings', async () => (await text(panel, 'chat-provider')) === 'openai');
  const answers = (n: number) =>
    until(
      `${n} answers`,
      () => panel.evaluate<boolean>(`document.querySelectorAll('.bubble.agent').length >= ${n}`),
      60_000,
    );
  const ask = async (question: string): Promise<void> => {
    await panel.click('#chat-input');
    await panel.type(question);
    await panel.click('#chat-send');
  };
  await ask('Order a medium for Grace Hopper and send it');
  await until('the order to be sent', () => form.url().includes('ext-done.html'), 60_000);
  await answers(2);
  await ask('What does the confirmation page say?');
  await answers(3);
  await until('the turn to end', () =>
    panel.evaluate<boolean>("document.getElementById('chat-stop').disabled"),
  );
  await shoot(panel, 'panel-chat.png');

  // Terminal: a shell whose `bproxy` reads the tab.
  await panel.click('#tab-terminal');
  await panel.click('#terminal-screen');
  await panel.type('echo "ready=$((6*7))"\n');
  await until(
    'the shell',
    () =>
      panel.evaluate<boolean>(
        "(document.querySelector('#terminal-screen .xterm-rows')?.textContent ?? '').includes('ready=42')",
      ),
    30_000,
  );
  await panel.type('clear; bproxy text --pretty\n');
  await until(
    'the page’s text',
    () =>
      panel.evaluate<boolean>(
        "(document.querySelector('#terminal-screen .xterm-rows')?.textContent ?? '').includes('Done')",
      ),
    30_000,
  );
  await shoot(panel, 'panel-terminal.png');
  panel.close();
} finally {
  await machine.close();
  await model.close();
  await pages.close();
}
