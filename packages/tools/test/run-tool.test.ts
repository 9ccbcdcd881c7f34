import { describe, expect, it } from 'vitest';
import { runTool, type DaemonAnswer, type ToolAction } from '../src/index';
import { UNTRUSTED_CLOSE, UNTRUSTED_OPEN } from '../src/untrusted';

const textOf = (result: Awaited<ReturnType<typeof runTool>>): string =>
  result.reply.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('|');

/** A send that records what it was asked and answers `answer`. */
function scripted(answer: DaemonAnswer): {
  calls: ToolAction[];
  send: (call: ToolAction) => Promise<DaemonAnswer>;
} {
  const calls: ToolAction[] = [];
  return {
    calls,
    send: (call) => {
      calls.push(call);
      return Promise.resolve(answer);
    },
  };
}

const page = { url: 'https://a.test/', title: 'A' };

describe('runTool', () => {
  it("sends the tool's action with its checked params and deadline, and renders the answer", async () => {
    const daemon = scripted({ ok: true, data: page });
    const result = await runTool('navigate', { url: page.url }, daemon.send);
    expect(daemon.calls).toHaveLength(1);
    expect(daemon.calls[0]?.tool.action).toBe('navigate');
    expect(daemon.calls[0]?.params).toEqual({ url: page.url });
    expect(daemon.calls[0]?.timeoutMs).toBe(60_000);
    expect(result.ok).toBe(true);
    // The page's title is page text: in the fence.
    expect(textOf(result)).toBe(`${UNTRUSTED_OPEN}\nat https://a.test/ "A"\n${UNTRUSTED_CLOSE}`);
  });

  it('answers an unknown tool and bad arguments without sending anything', async () => {
    const daemon = scripted({ ok: true, data: page });
    const unknown = await runTool('teleport', {}, daemon.send);
    expect(unknown).toMatchObject({ ok: false, code: 'UNKNOWN_ACTION' });
    expect(textOf(unknown)).toBe(
      'UNKNOWN_ACTION: no tool named "teleport"\nWhat to do: Call tools/list for the tools of this server',
    );
    const bad = await runTool('click', {}, daemon.send);
    expect(bad).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(daemon.calls).toEqual([]);
  });

  it("reports the daemon's error with the tools' hint, or the surface's own, and a pause's reason", async () => {
    const paused: DaemonAnswer = {
      ok: false,
      error: { code: 'HUMAN_REQUIRED', message: 'session paused', reason: 'a CAPTCHA', hint: 'cli words' },
    };
    const tools = await runTool('snapshot', {}, scripted(paused).send);
    expect(tools).toMatchObject({ ok: false, code: 'HUMAN_REQUIRED', reason: 'a CAPTCHA' });
    expect(textOf(tools)).toMatch(
      /^HUMAN_REQUIRED: session paused\nReason: a CAPTCHA\nWhat to do: Tell the user/,
    );
    const own = await runTool('snapshot', {}, scripted(paused).send, { hints: { HUMAN_REQUIRED: 'Stop.' } });
    expect(textOf(own)).toBe('HUMAN_REQUIRED: session paused\nReason: a CAPTCHA\nWhat to do: Stop.');
  });

  it('refuses a result outside the protocol instead of showing it to the model', async () => {
    const result = await runTool('snapshot', {}, scripted({ ok: true, data: { snapshot: 42 } }).send);
    expect(result).toMatchObject({ ok: false, code: 'BAD_RESPONSE' });
    expect(textOf(result)).toMatch(/^BAD_RESPONSE: the snapshot result is outside the protocol/);
  });
});
