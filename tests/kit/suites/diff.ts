/**
 * Part of the driver-agnostic action suite (see actions.ts): snapshot diffs and handles that survive a
 * re-render. A list re-rendered in place keyed (its nodes kept) and unkeyed (its nodes replaced), a
 * field that changes after a click, a long error sentence that appears in a plain div: the diff shows
 * exactly the change (the lines of removed items as one line naming their handles), the handles of
 * kept nodes act, those of replaced or removed nodes are refused.
 */
import { expect, it } from 'vitest';
import type { Agent } from '../agent';
import { handleIn } from './widgets';

const T = 45_000;

interface Snapshot {
  url: string;
  snapshot: string;
  diff?: 'first' | 'navigated' | 'changes';
  notice?: string;
}

interface Acted {
  navigated: boolean;
  diff?: { kind: 'first' | 'navigated' | 'changes'; snapshot: string; notice?: string };
}

const PAYMENT_ERROR = 'Your payment could not be processed, please check the card number and try again.';

export function defineDiffTests(a: () => Agent): void {
  const snapshot = (s: string, ...more: string[]): Promise<Snapshot> =>
    a().cli.ok<Snapshot>(['snapshot', '-s', s, ...more]);
  const act = (s: string, ...args: string[]): Promise<Acted> => a().cli.ok<Acted>([...args, '-s', s]);
  const likes = (s: string): Promise<Record<string, number>> =>
    a()
      .cli.ok<Record<string, number>>(['text', '-s', s])
      .then((r) => {
        const text = String(r.text);
        const out: Record<string, number> = {};
        for (const m of text.matchAll(/(\w+): (\d+) likes/g)) if (m[1] && m[2]) out[m[1]] = Number(m[2]);
        return out;
      });

  it(
    'diffs: a keyed re-render keeps handles that act, an unkeyed one replaces them and the old ones are refused',
    async () => {
      const s = await a().session('diff-list.html');
      const first = await snapshot(s, '--diff');
      expect(first.diff).toBe('first');
      const apple = handleIn(first.snapshot, 'button', 'Like Apple');
      const banana = handleIn(first.snapshot, 'button', 'Like Banana');
      const add = handleIn(first.snapshot, 'button', 'Add Date (keyed)');
      const rebuild = handleIn(first.snapshot, 'button', 'Rebuild (unkeyed)');

      // One counter changes: the diff is that one line, and nothing else.
      const liked = await act(s, 'click', banana, '--diff');
      expect(liked.diff).toEqual({ kind: 'changes', snapshot: '~ text: Banana: 1 likes' });

      // Keyed: a new item goes on top, the others keep their nodes, and so their handles.
      const added = await act(s, 'click', add, '--diff');
      const date = handleIn(added.diff?.snapshot ?? '', 'button', 'Like Date');
      expect(added.diff).toEqual({
        kind: 'changes',
        snapshot: `+ text: Date: 0 likes\n+ button "Like Date" [${date}]`,
      });
      expect(new Set([apple, banana, add, rebuild, date]).size).toBe(5);
      await act(s, 'click', apple);
      expect(await likes(s)).toEqual({ Date: 0, Apple: 1, Banana: 1, Cherry: 0 });
      const again = await snapshot(s, '--diff');
      expect(again).toMatchObject({ diff: 'changes', snapshot: '~ text: Apple: 1 likes' });
      expect(handleIn((await snapshot(s)).snapshot, 'button', 'Like Apple')).toBe(apple);

      // Unkeyed: every row is a new node that looks the same. Their handles are new; the old ones
      // are refused, before and after a new read, and never land on the look-alike.
      await act(s, 'click', rebuild);
      expect((await a().cli.fail(['click', '-s', s, apple])).code).toBe('ELEMENT_HANDLE_STALE');
      const rebuilt = await snapshot(s, '--diff');
      const plus = rebuilt.snapshot.replace(/^- .*$/gm, '');
      const fresh = ['Date', 'Apple', 'Banana', 'Cherry'].map((name) =>
        handleIn(plus, 'button', `Like ${name}`),
      );
      expect(rebuilt.diff).toBe('changes');
      expect(rebuilt.snapshot.split('\n')).toEqual(
        ['Date', 'Apple', 'Banana', 'Cherry'].flatMap((name, i) => [
          `- button "Like ${name}" [${[date, apple, banana, handleIn(first.snapshot, 'button', 'Like Cherry')][i] ?? ''}]`,
          `+ button "Like ${name}" [${fresh[i] ?? ''}]`,
        ]),
      );
      for (const old of [apple, banana, date])
        expect((await a().cli.fail(['click', '-s', s, old])).code).toBe('ELEMENT_HANDLE_STALE');
      expect(await likes(s)).toEqual({ Date: 0, Apple: 1, Banana: 1, Cherry: 0 });
      await act(s, 'click', fresh[1] ?? '');
      expect(await likes(s)).toEqual({ Date: 0, Apple: 2, Banana: 1, Cherry: 0 });
      // The buttons outside the list were not re-rendered: their handles still act.
      await act(s, 'click', add);
      expect(await likes(s)).toMatchObject({ Apple: 2 });
      await a().close(s);
    },
    T,
  );

  it(
    'diffs: the lines of removed items are one line naming every handle that went, and those handles are refused',
    async () => {
      const s = await a().session('diff-list.html');
      const first = await snapshot(s, '--diff');
      const apple = handleIn(first.snapshot, 'button', 'Like Apple');
      const banana = handleIn(first.snapshot, 'button', 'Like Banana');
      const cherry = handleIn(first.snapshot, 'button', 'Like Cherry');
      const keep = handleIn(first.snapshot, 'button', 'Keep only Cherry (keyed)');

      const kept = await act(s, 'click', keep, '--diff');
      // Only lines went (the two rows): as many as the whole outline lost, named by their handles.
      const after = (await snapshot(s)).snapshot;
      const went = first.snapshot.split('\n').length - after.split('\n').length;
      expect(went).toBeGreaterThanOrEqual(4);
      expect(kept.diff).toEqual({ kind: 'changes', snapshot: `- ${went} lines gone: ${apple} ${banana}` });
      expect(after).toContain(`[${cherry}]`);
      // Each handle named there is dead; the row that stayed keeps its handle, which acts.
      for (const old of [apple, banana])
        expect((await a().cli.fail(['click', '-s', s, old])).code).toBe('ELEMENT_HANDLE_STALE');
      await act(s, 'click', cherry);
      expect(await likes(s)).toEqual({ Cherry: 1 });
      await a().close(s);
    },
    T,
  );

  it(
    'diffs: a field changed by a click, a long error in a plain div, no change, and a new page',
    async () => {
      const s = await a().session('diff-form.html');
      const first = await snapshot(s, '--diff');
      expect(first.diff).toBe('first');
      const qty = handleIn(first.snapshot, 'textbox', 'Quantity');
      const more = handleIn(first.snapshot, 'button', 'One more');
      const pay = handleIn(first.snapshot, 'button', 'Pay now');

      expect((await act(s, 'click', more, '--diff')).diff).toEqual({
        kind: 'changes',
        snapshot: `~ textbox "Quantity" value="2" [${qty}]`,
      });

      // The whole snapshot leaves a sentence this long to `text`; a diff shows it as news.
      const paid = await act(s, 'click', pay, '--diff');
      expect(paid.diff).toEqual({ kind: 'changes', snapshot: `+ text: ${PAYMENT_ERROR}` });
      expect((await snapshot(s)).snapshot).not.toContain('Your payment');

      expect(await snapshot(s, '--diff')).toMatchObject({
        diff: 'changes',
        snapshot: '',
        notice: 'No change since your last snapshot.',
      });
      await act(s, 'fill', qty, '5');
      expect((await snapshot(s, '--diff')).snapshot).toBe(`~ textbox "Quantity" value="5" [${qty}]`);

      // Another scope (a part of the page) starts whole, and is diffed on its own.
      expect((await snapshot(s, '--diff', '--contains', 'Quantity')).diff).toBe('first');

      await a().cli.ok(['navigate', '-s', s, a().url('counter.html')]);
      expect((await a().cli.fail(['click', '-s', s, more])).code).toBe('ELEMENT_HANDLE_STALE');
      const moved = await snapshot(s, '--diff');
      expect(moved.diff).toBe('navigated');
      expect(moved.snapshot).toContain('button "Increment"');
      await a().close(s);

      // A page read whole with --max-chars: an action's diff compares with that read (its scope), not
      // with a whole read of its own in the default scope.
      const w = await a().session('diff-form.html');
      const whole = await snapshot(w, '--diff', '--max-chars', '50000');
      expect(whole.diff).toBe('first');
      const wQty = handleIn(whole.snapshot, 'textbox', 'Quantity');
      const wMore = handleIn(whole.snapshot, 'button', 'One more');
      expect((await act(w, 'click', wMore, '--diff')).diff).toEqual({
        kind: 'changes',
        snapshot: `~ textbox "Quantity" value="2" [${wQty}]`,
      });
      await a().close(w);
    },
    T,
  );
}
