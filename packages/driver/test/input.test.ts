import { describe, expect, it } from 'vitest';
import { forwardedParamsSchema, type ForwardedParams } from '@bproxy/protocol';
import {
  approach,
  mouseClick,
  parseCombo,
  pressCombo,
  trustedSteps,
  typeText,
  DriverFailure,
  MOVE_WAIT_CAP_MS,
  type InputCommands,
  type InputSender,
  type TrustedPage,
} from '../src/index';

/** The far side of the sequences: records each command and answers when told (or at once). */
class RecordingSender implements InputSender {
  readonly sent: { method: string; params: Record<string, unknown> }[] = [];
  /** Commands sent before the previous one was answered: how many were in flight together. */
  maxInFlight = 0;
  private inFlight = 0;

  async send<M extends keyof InputCommands>(method: M, params: InputCommands[M]): Promise<unknown> {
    this.sent.push({ method, params: { ...params } });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await Promise.resolve();
    this.inFlight--;
    return {};
  }

  types(): string[] {
    return this.sent.map((c) => String(c.params.type ?? c.method));
  }
}

describe('key combos', () => {
  it('parses named keys, letters and modifier combos with their key codes', () => {
    expect(parseCombo('Enter')).toMatchObject({
      modifiers: [],
      key: { key: 'Enter', code: 'Enter', keyCode: 13 },
    });
    expect(parseCombo('Control+A')).toMatchObject({
      modifiers: ['Control'],
      key: { key: 'a', code: 'KeyA', keyCode: 65 },
      impliedShift: false,
    });
    expect(parseCombo('Shift+Tab')).toMatchObject({ modifiers: ['Shift'], key: { code: 'Tab', keyCode: 9 } });
    expect(parseCombo('Shift+a')).toMatchObject({ key: { key: 'A', text: 'A' }, impliedShift: false });
    expect(parseCombo('A')).toMatchObject({ key: { key: 'A', code: 'KeyA' }, impliedShift: true });
    expect(parseCombo('+')).toMatchObject({ key: { key: '+', code: 'Equal' }, impliedShift: true });
    expect(parseCombo('Esc')).toMatchObject({ key: { key: 'Escape', keyCode: 27 } });
    expect(parseCombo('ArrowDown')).toMatchObject({ key: { keyCode: 40 } });
    expect(parseCombo('F5')).toMatchObject({ key: { key: 'F5', keyCode: 116 } });
  });

  it('refuses unknown keys and modifiers', () => {
    expect(parseCombo('Hyper')).toBeUndefined();
    expect(parseCombo('Super+A')).toBeUndefined();
  });
});

describe('trusted input sequences', () => {
  it('holds Control while the key goes down and up, types no text for a shortcut, releases in reverse', async () => {
    const input = new RecordingSender();
    const combo = parseCombo('Control+Shift+A');
    if (combo === undefined) throw new Error('no combo');
    await pressCombo(input, combo);
    expect(input.sent.map((c) => [c.params.type, c.params.key, c.params.modifiers])).toEqual([
      ['rawKeyDown', 'Control', 2],
      ['rawKeyDown', 'Shift', 10],
      ['rawKeyDown', 'A', 10],
      ['keyUp', 'A', 10],
      ['keyUp', 'Shift', 2],
      ['keyUp', 'Control', 0],
    ]);
  });

  it('releases the modifiers it pressed when the key itself fails, so none stays held', async () => {
    const input = new RecordingSender();
    const send = input.send.bind(input);
    input.send = async (method, params) => {
      const answer = await send(method, params);
      if ((params as { key?: string }).key?.toLowerCase() === 'a') throw new Error('the tab went away');
      return answer;
    };
    const combo = parseCombo('Control+A');
    if (combo === undefined) throw new Error('no combo');
    await expect(pressCombo(input, combo)).rejects.toThrow('the tab went away');
    expect(input.sent.map((c) => [c.params.type, c.params.key])).toEqual([
      ['rawKeyDown', 'Control'],
      ['rawKeyDown', 'a'],
      ['keyUp', 'Control'],
    ]);
  });

  it('types known characters as key presses with their text and anything else as inserted text', async () => {
    const input = new RecordingSender();
    await typeText(input, 'aB é\n');
    expect(input.sent.map((c) => [c.method, c.params.type, c.params.text, c.params.modifiers])).toEqual([
      ['Input.dispatchKeyEvent', 'keyDown', 'a', 0],
      ['Input.dispatchKeyEvent', 'keyUp', undefined, 0],
      ['Input.dispatchKeyEvent', 'keyDown', 'B', 8],
      ['Input.dispatchKeyEvent', 'keyUp', undefined, 8],
      ['Input.dispatchKeyEvent', 'keyDown', ' ', 0],
      ['Input.dispatchKeyEvent', 'keyUp', undefined, 0],
      ['Input.insertText', undefined, 'é', undefined],
      ['Input.dispatchKeyEvent', 'keyDown', '\r', 0],
      ['Input.dispatchKeyEvent', 'keyUp', undefined, 0],
    ]);
  });

  it('moves, presses and releases on the point, each click counted, sent together so no frame is waited for', async () => {
    const input = new RecordingSender();
    const rest = { pointer: null };
    await mouseClick(input, rest, { x: 10, y: 20 }, { button: 'left', clickCount: 2 });
    expect(input.sent.map((c) => [c.params.type, c.params.x, c.params.y, c.params.clickCount])).toEqual([
      ['mouseMoved', 10, 20, undefined],
      ['mousePressed', 10, 20, 1],
      ['mouseReleased', 10, 20, 1],
      ['mousePressed', 10, 20, 2],
      ['mouseReleased', 10, 20, 2],
    ]);
    expect(input.maxInFlight).toBe(5);
    expect(rest.pointer).toEqual({ x: 10, y: 20 });
  });

  it('waits for each move of a journey the page must see point by point, and sends a quick stroke at once', async () => {
    const far = { x: 600, y: 500 };
    const slow = new RecordingSender();
    const slowRest = { pointer: { x: 0, y: 0 } };
    const walked = await approach(slow, slowRest, far, true);
    expect(walked.travelled).toBe(true);
    expect(slow.sent.length).toBeGreaterThanOrEqual(3);
    expect(slow.maxInFlight).toBe(1);
    const last = slow.sent.at(-1)?.params;
    expect(slowRest.pointer).toEqual({ x: last?.x, y: last?.y });

    const quick = new RecordingSender();
    await approach(quick, { pointer: { x: 0, y: 0 } }, far, false);
    expect(quick.maxInFlight).toBe(quick.sent.length);
    expect(walked.end).toEqual(far);
  });

  it('goes on with a stroke whose moves the page never answers, after a bounded wait', async () => {
    const sent: string[] = [];
    const frameless: InputSender = {
      send: (_method, params) => {
        const type = String((params as { type?: string }).type);
        sent.push(type);
        // A page that draws no frame answers no move; presses are answered.
        return type === 'mouseMoved' ? new Promise(() => undefined) : Promise.resolve({});
      },
    };
    const rest = { pointer: { x: 0, y: 0 } };
    const started = Date.now();
    const { end } = await approach(frameless, rest, { x: 600, y: 500 }, false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(MOVE_WAIT_CAP_MS - 5);
    expect(Date.now() - started).toBeLessThan(MOVE_WAIT_CAP_MS * 4);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(end).toEqual({ x: 600, y: 500 });
  });

  it('throws a refused move at once instead of waiting', async () => {
    const refusing: InputSender = {
      send: () => Promise.reject(new Error('Debugger is not attached to the tab')),
    };
    const started = Date.now();
    await expect(approach(refusing, { pointer: { x: 0, y: 0 } }, { x: 600, y: 500 }, false)).rejects.toThrow(
      /not attached/,
    );
    expect(Date.now() - started).toBeLessThan(MOVE_WAIT_CAP_MS);
  });
});

describe('trusted actions', () => {
  function page(
    input: InputSender,
    points: { x: number; y: number }[],
  ): TrustedPage & { focused: unknown[] } {
    const focused: unknown[] = [];
    return {
      input,
      rest: { pointer: null },
      focused,
      locate: async () => points.shift() ?? { x: 0, y: 0 },
      focusAt: async (point, caretToEnd) => {
        focused.push([point, caretToEnd]);
        return true;
      },
      checkHuman: async () => undefined,
    };
  }

  it('follows a target that moved while the pointer travelled, and presses where it is now', async () => {
    const input = new RecordingSender();
    const p = page(input, [
      { x: 300, y: 300 },
      { x: 300, y: 340 },
    ]);
    // Through the schema: the forwarded params type a required target as optional (a typing limit).
    const params = forwardedParamsSchema('click').parse({
      target: { selector: '#a' },
    }) as ForwardedParams<'click'>;
    const steps = trustedSteps(p, { action: 'click', params });
    await steps.prepare();
    await steps.act();
    const presses = input.sent.filter((c) => c.params.type === 'mousePressed');
    expect(presses.map((c) => [c.params.x, c.params.y])).toEqual([[300, 340]]);
  });

  it('focuses the target before keys, with the caret at the end for typing', async () => {
    const input = new RecordingSender();
    const p = page(input, [{ x: 5, y: 6 }]);
    const steps = trustedSteps(p, { action: 'type', params: { text: 'x', target: { selector: '#b' } } });
    await steps.prepare();
    expect(p.focused).toEqual([[{ x: 5, y: 6 }, true]]);
    expect(input.sent).toEqual([]);
    await steps.act();
    expect(input.types()).toEqual(['keyDown', 'keyUp']);
  });

  it('refuses an unknown key before anything reaches the page', () => {
    const input = new RecordingSender();
    expect(() => trustedSteps(page(input, []), { action: 'press', params: { key: 'Hyper' } })).toThrow(
      DriverFailure,
    );
    expect(input.sent).toEqual([]);
  });
});
