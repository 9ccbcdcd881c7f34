/**
 * The chat's queue in the real side panel, against a scripted model server on 127.0.0.1. A message
 * sent while an answer streams waits apart, below that answer — never drawn inside it, which would cut
 * the answer in two — and joins the conversation when its turn starts. Stop drops what waited, and
 * says so: the dropped messages stay in view, marked as not sent, and are still there, marked, after
 * the panel is closed and opened again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startModelServer,
  type ModelServer,
  type RecordedRequest,
  type Reply,
  type TrickleProgress,
} from '../../packages/agent/test/helpers/model-server';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;
let model: ModelServer;

const SLOW = 'Alpha beta gamma delta. '.repeat(40);
const slow: TrickleProgress = { sent: 0, total: 0, closedAt: null };

/** The user's newest message in a request. */
function lastUser(request: RecordedRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const user = messages.filter((m) => m.role === 'user').at(-1)?.content;
  return typeof user === 'string' ? user : JSON.stringify(user ?? '');
}

function script(request: RecordedRequest): Reply {
  const text = lastUser(request);
  if (/slow answer/.test(text)) return { trickle: SLOW, piece: 8, everyMs: 25, end: true, progress: slow };
  if (/hold on/.test(text)) return { hang: true, text: 'Holding' };
  return { text: `Answer to ${text}` };
}

beforeAll(async () => {
  pages = await serveFixtures();
  model = await startModelServer();
  model.push(...Array.from({ length: 40 }, () => script));
  machine = await launchHeaded('bproxy-headed-queue-');
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

async function send(panel: DevtoolsTarget, message: string): Promise<void> {
  await panel.evaluate(
    `(() => { document.getElementById('chat-input').value = ${JSON.stringify(message)}; })()`,
  );
  await panel.click('#chat-send');
}

/** The chat as shown, in order: each bubble or line with its kind, and whether it is in the waiting area. */
interface Shown {
  kind: string;
  text: string;
  waiting: boolean;
}
const shown = (panel: DevtoolsTarget): Promise<Shown[]> =>
  panel.evaluate<Shown[]>(`[...document.querySelectorAll(
      '#chat-log-host .bubble, #chat-log-host .chat-notice, #chat-log-host .dropped-note'
    )].map((n) => ({
      kind: n.className,
      text: n.textContent ?? '',
      waiting: n.closest('.chat-waiting') !== null,
    }))`);

describe('the chat queue in the real side panel', () => {
  it('shows a message sent mid-answer below it, apart, and marks what Stop dropped, also after a reopen', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();
    let { target: panel } = await machine.openSidePanel();
    await panel.click('#tab-chat');

    await send(panel, 'a slow answer please');
    await until('the answer to stream', async () =>
      (await shown(panel)).some((s) => s.kind.includes('agent') && s.text.length > 40),
    );
    await send(panel, 'queued while it streams');
    const during = await until('the message to wait', async () => {
      const now = await shown(panel);
      return now.some((s) => s.waiting && s.text === 'queued while it streams') ? now : undefined;
    });
    // Still streaming when the message was shown waiting: below the answer, not inside it.
    expect(slow.sent).toBeLessThan(slow.total);
    expect(during.map((s) => [s.kind.includes('agent') ? 'agent' : 'user', s.waiting])).toEqual([
      ['user', false],
      ['agent', false],
      ['user', true],
    ]);
    await until('the waiting message’s answer', async () =>
      (await shown(panel)).some((s) => s.text === 'Answer to queued while it streams'),
    );
    const after = await shown(panel);
    // The streamed answer is one bubble, whole; the waiting message joined the log after it.
    expect(after.map((s) => [s.text, s.waiting])).toEqual([
      ['a slow answer please', false],
      [SLOW.trim(), false],
      ['queued while it streams', false],
      ['Answer to queued while it streams', false],
    ]);

    // Two wait behind an answer that never ends; Stop drops them, and says so.
    await send(panel, 'hold on');
    await until('the held answer', async () => (await shown(panel)).some((s) => s.text === 'Holding'));
    await send(panel, 'dropped one');
    await send(panel, 'dropped two');
    await until('both to wait', async () => (await shown(panel)).filter((s) => s.waiting).length === 2);
    await until('the host to take both', () =>
      panel.evaluate<boolean>("document.querySelectorAll('#chat-log-host .bubble.pending').length === 0"),
    );
    await panel.click('#chat-stop');
    const marked = (list: Shown[]) =>
      list.filter((s) => s.kind.includes('dropped') || s.kind === 'chat-notice').map((s) => [s.kind, s.text]);
    const expected = [
      ['chat-notice', 'Stopped.'],
      ['bubble user dropped', 'dropped one'],
      ['dropped-note', 'Not sent: Stop dropped it.'],
      ['bubble user dropped', 'dropped two'],
      ['dropped-note', 'Not sent: Stop dropped it.'],
    ];
    await until(
      'the dropped messages marked',
      async () => JSON.stringify(marked(await shown(panel))) === JSON.stringify(expected),
    );
    expect((await shown(panel)).some((s) => s.waiting)).toBe(false);

    // Closed and opened again: the history keeps them, marked.
    panel.close();
    await machine.closeSidePanel();
    ({ target: panel } = await machine.openSidePanel());
    await until('the history with the dropped messages', async () => {
      const list = await shown(panel);
      return JSON.stringify(marked(list).filter(([kind]) => kind !== 'chat-notice')) ===
        JSON.stringify(expected.slice(1))
        ? list
        : undefined;
    });
    // Never sent to the model.
    expect(model.requests.map(lastUser)).not.toContain('dropped one');
    panel.close();
    await machine.closeSidePanel();
    await page.close();
  });
});
