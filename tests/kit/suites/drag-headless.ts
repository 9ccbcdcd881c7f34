/**
 * `drag` in headless Chromium, the same on every driver (drag-headless-cdp.test.ts,
 * drag-headless-extension.test.ts): a pointer-event sortable, an HTML5 drag and drop (dragstart with
 * its DataTransfer, the drop at the point asked) and a file drop all land, as the page itself reports
 * — never an ok with nothing dropped —, in a tab behind the session's second one. In the CDP driver's
 * headless window (780×493) locating the drop column scrolls the page: the press at the card's point
 * located before that scroll landed on another element, no dragstart fired, and the drag answered ok
 * with nothing dropped. The extension's headless drag events were refused outright before.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, type SuiteEnv } from '../agent';
import { allowClasses } from '../allow-classes';

export interface HeadlessDragDriver {
  label: string;
  /** Starts once; `allowed` is a folder the daemon was started with `--allow-files` on. */
  start(): Promise<SuiteEnv & { allowed: string }>;
}

export function defineHeadlessDragSuite(driver: HeadlessDragDriver): void {
  describe(`drag in headless Chromium through ${driver.label}`, () => {
    it('drags a pointer sortable, an HTML5 card to the point asked, and a file onto a drop zone, in a tab behind another of its session', async () => {
      const env = await driver.start();
      // A file is dropped: a person allowed uploads (approvals ask for them in the user's Chrome).
      allowClasses(env.cli.home, ['upload']);
      const agent = new Agent(env);
      const lines = async (s: string): Promise<string[]> => (await agent.text(s)).split('\n');
      const s = await agent.session('kanban.html');
      // The session's second tab opens in front of the first, which the session is bound to again.
      const behind = async (): Promise<void> => {
        await agent.openTab(s, 'upload.html');
        await agent.cli.ok(['session', 'bind', '-s', s, '--tab', 't1']);
      };
      await behind();

      const [first, last] = await agent.handles(s, 'Item A1', 'Item A3');
      await agent.cli.ok(['drag', '-s', s, first, last]);
      expect(await lines(s)).toContain('Order: A2, A3, A1');

      const [card, done] = await agent.handles(s, 'Card X', 'Done column');
      await agent.cli.ok(['drag', '-s', s, card, done, '--at', '30,120']);
      const dropped = (await lines(s))
        .map((l) => /^Dropped: card-x at (\d+),(\d+) trusted=true$/.exec(l))
        .find((m) => m !== null);
      expect(dropped, 'the page saw a trusted drop with its data').toBeDefined();
      expect(Math.abs(Number(dropped?.[1]) - 30)).toBeLessThanOrEqual(1);
      expect(Math.abs(Number(dropped?.[2]) - 120)).toBeLessThanOrEqual(1);

      await agent.cli.ok(['navigate', '-s', s, agent.url('upload.html')]);
      // The drag brought the tab in front: put another in front of it again.
      await behind();
      const [zone] = await agent.handles(s, 'Drop files here');
      writeFileSync(join(env.allowed, 'x.txt'), 'x');
      await agent.cli.ok(['drag', '-s', s, join(env.allowed, 'x.txt'), '--to', zone]);
      expect(await lines(s)).toContain('drop trusted=true: x.txt(1)');
      await agent.close(s);
    }, 90_000);
  });
}
