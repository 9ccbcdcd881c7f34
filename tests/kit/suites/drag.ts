/**
 * `drag`, the same on every driver: a kanban page (tests/fixtures/pages/kanban.html) with a list sorted
 * on pointer events (SortableJS-style) and a board on HTML5 drag and drop (dragstart/drop with a
 * DataTransfer), each driven by handles only through the CLI, the page's own state checked after.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, type DriverUnderTest } from '../agent';

const T = 60_000;

export function defineDragSuite(driver: DriverUnderTest): void {
  describe(`drag on ${driver.label}`, () => {
    let agent: Agent | undefined;
    const a = (): Agent => {
      if (!agent) throw new Error(`${driver.label} did not start`);
      return agent;
    };
    beforeAll(async () => {
      agent = new Agent(await driver.start());
    }, 120_000);

    it(
      'reorders a pointer-event sortable list by dragging one item onto another',
      async () => {
        const s = await a().session('kanban.html');
        const [first, last] = await a().handles(s, 'Item A1', 'Item A3');
        const r = await a().cli.ok<{ input?: string }>(['drag', '-s', s, first, last]);
        expect(r.input).toBeUndefined();
        expect(await a().text(s)).toContain('Order: A2, A3, A1');
        await a().close(s);
      },
      T,
    );

    it(
      'moves a card by HTML5 drag and drop, its DataTransfer carried, to the point asked within the column',
      async () => {
        const s = await a().session('kanban.html');
        const [card, done] = await a().handles(s, 'Card X', 'Done column');
        await a().cli.ok(['drag', '-s', s, card, done, '--at', '30,120']);
        const text = await a().text(s);
        console.log(
          'DROPTEXT',
          text.split('\n').filter((l) => l.includes('Dropped') || l.includes('Dragging')),
        );
        expect(text).toContain('Dropped: card-x at 30,120 trusted=true');
        const bad = await a().cli.run(['drag', '-s', s, card, done, '--at', 'left']);
        expect(bad.code).not.toBe(0);
        await a().close(s);
      },
      T,
    );
  });
}
