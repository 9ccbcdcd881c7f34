/**
 * `drag` and the file drop, the same on every driver (drag-cdp.test.ts, drag-extension.test.ts): the
 * kanban page (tests/fixtures/pages/kanban.html) with a list sorted on pointer events (SortableJS-style)
 * and a board on HTML5 drag and drop (dragstart/dragover/drop with a DataTransfer), and the upload
 * page's drop zone, whose server checks the bytes the page posts. Everything by handles only, through
 * the CLI and MCP; the page's own state proves the move. Refusals: a file outside the allowed folders,
 * a path naming `..`, a link out — each PATH_NOT_ALLOWED, and the page saw no drop.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, type DriverUnderTest, type SuiteEnv } from '../agent';
import { allowClasses } from '../allow-classes';
import { McpClient, handleOf } from '../mcp';
import { until } from '../wait';

const T = 60_000;

export interface DragEnv extends SuiteEnv {
  /** A folder `service start --allow-files` named. */
  allowed: string;
  /** A folder nobody allowed. */
  outside: string;
}

export interface DragDriver extends Omit<DriverUnderTest, 'start'> {
  start(): Promise<DragEnv>;
}

interface Dropped {
  navigated: boolean;
  files: { file: string; bytes: number }[];
}

export function defineDragSuite(driver: DragDriver): void {
  describe(`drag and drop through ${driver.label}`, () => {
    let env: DragEnv | undefined;
    const setup = async (): Promise<{ e: DragEnv; agent: Agent }> => {
      if (env === undefined) {
        env = await driver.start();
        // Files are dropped and the form's "Send" pressed: a person allowed both (approvals).
        allowClasses(env.cli.home, ['upload', 'send']);
      }
      return { e: env, agent: new Agent(env) };
    };
    const line = async (agent: Agent, s: string, starts: string): Promise<string | undefined> =>
      (await agent.text(s)).split('\n').find((l) => l.startsWith(starts));

    it(
      'reorders a pointer-event sortable list by dragging one item onto another',
      async () => {
        const { agent } = await setup();
        const s = await agent.session('kanban.html');
        const [first, last] = await agent.handles(s, 'Item A1', 'Item A3');
        const r = await agent.cli.ok<{ navigated: boolean }>(['drag', '-s', s, first, last]);
        expect(r.navigated).toBe(false);
        expect(await line(agent, s, 'Order:')).toBe('Order: A2, A3, A1');
        await agent.close(s);
      },
      T,
    );

    it(
      'moves a card by HTML5 drag and drop, its DataTransfer carried, to the point asked in the column',
      async () => {
        const { agent } = await setup();
        const s = await agent.session('kanban.html');
        const [card, done] = await agent.handles(s, 'Card X', 'Done column');
        const r = await agent.cli.ok<{ diff?: { snapshot: string } }>([
          'drag',
          '-s',
          s,
          card,
          done,
          '--at',
          '30,120',
          '--diff',
        ]);
        // Where in the column it landed, as the page measured it (event coordinates are whole pixels).
        const dropped = /^Dropped: card-x at (\d+),(\d+) trusted=true$/.exec(
          (await line(agent, s, 'Dropped:')) ?? '',
        );
        expect(dropped, 'the page saw a trusted drop with its data').not.toBeNull();
        expect(Math.abs(Number(dropped?.[1]) - 30)).toBeLessThanOrEqual(1);
        expect(Math.abs(Number(dropped?.[2]) - 120)).toBeLessThanOrEqual(1);
        expect(r.diff?.snapshot).toContain('Dropped: card-x');
        // The card now sits in the Done column: the page moved it on drop.
        const columns = await agent.cli.ok<{ snapshot: string }>(['snapshot', '-s', s]);
        const done2 = columns.snapshot.indexOf('Done column');
        expect(done2).toBeGreaterThan(0);
        expect(columns.snapshot.indexOf('Card X', done2)).toBeGreaterThan(done2);
        const bad = await agent.cli.run(['drag', '-s', s, card, done, '--at', 'left']);
        expect(bad.code).not.toBe(0);
        await agent.close(s);
      },
      T,
    );

    it(
      'drops a file from an allowed folder onto the drop zone; the page gets it and the server the bytes',
      async () => {
        const { e, agent } = await setup();
        const created = await e.cli.ok<{ session: string; tmpDir: string }>([
          'session',
          'create',
          '--pacing',
          'fast',
        ]);
        const s = created.session;
        await agent.openTab(s, 'upload.html');
        writeFileSync(join(e.allowed, 'dropped.txt'), 'dropped, byte for byte\n');
        const [zone, send] = await agent.handles(s, 'Drop files here', 'Send');
        const r = await e.cli.ok<Dropped>(['drag', '-s', s, join(e.allowed, 'dropped.txt'), '--to', zone]);
        expect(r.files).toEqual([{ file: 'dropped.txt', bytes: 23 }]);
        expect(r.navigated).toBe(false);
        expect(await line(agent, s, 'drop ')).toBe('drop trusted=true: dropped.txt(23)');
        await e.cli.ok(['click', '-s', s, send]);
        await until('the page to post the file', async () => (await agent.text(s)).includes('sent 1'));
        expect(e.pages.received('dropped.txt')?.toString()).toBe('dropped, byte for byte\n');
        await agent.close(s);
      },
      T,
    );

    it(
      'refuses a file outside the allowed folders, a path naming "..", a link out: PATH_NOT_ALLOWED, no drop',
      async () => {
        const { e, agent } = await setup();
        const created = await e.cli.ok<{ session: string; tmpDir: string }>([
          'session',
          'create',
          '--pacing',
          'fast',
        ]);
        const s = created.session;
        const folder = created.tmpDir;
        await agent.openTab(s, 'upload.html');
        const [zone] = await agent.handles(s, 'Drop files here');
        const secret = join(e.outside, 'drop-secret.txt');
        writeFileSync(secret, 'not for agents');
        symlinkSync(secret, join(folder, 'drop-link.txt'));
        mkdirSync(join(folder, 'sub'), { recursive: true });
        writeFileSync(join(folder, 'ok.txt'), 'ok');
        const refusal = async (file: string) =>
          (await e.cli.fail(['drag', '-s', s, file, '--to', zone])).code;
        expect(await refusal(secret)).toBe('PATH_NOT_ALLOWED');
        expect(await refusal(`${folder}/sub/../ok.txt`)).toBe('PATH_NOT_ALLOWED');
        expect(await refusal(join(folder, 'drop-link.txt'))).toBe('PATH_NOT_ALLOWED');
        expect(await line(agent, s, 'drop ')).toBeUndefined();
        await agent.close(s);
      },
      T,
    );

    describe('through MCP', () => {
      let mcp: McpClient | undefined;
      afterAll(async () => {
        await mcp?.close();
      });

      it(
        'drags a card and drops a file by handle; a file outside the allowed folders is refused',
        async () => {
          const { e } = await setup();
          mcp = await McpClient.start(e.cli.environment(), ['--browser', e.browser, '--caps', 'files']);
          await mcp.ok('tab_open', { url: e.pages.url('kanban.html') });
          const board = await mcp.ok('snapshot');
          const answer = await mcp.ok('drag', {
            target: handleOf(board, /Card Y/),
            to: handleOf(board, /Done column/),
          });
          expect(answer).toContain('dragged');
          expect(await mcp.ok('text')).toContain('Dropped: card-y at');

          await mcp.ok('navigate', { url: e.pages.url('upload.html') });
          const form = await mcp.ok('snapshot');
          const zone = handleOf(form, /Drop files here/);
          writeFileSync(join(e.allowed, 'mcp-drop.txt'), 'through mcp');
          expect(await mcp.ok('drop', { target: zone, files: [join(e.allowed, 'mcp-drop.txt')] })).toContain(
            'mcp-drop.txt',
          );
          expect(await mcp.ok('text')).toContain('drop trusted=true: mcp-drop.txt(11)');
          const refused = await mcp.call('drop', {
            target: zone,
            files: [join(e.outside, 'drop-secret.txt')],
          });
          expect(refused.isError).toBe(true);
          expect(refused.text).toContain('PATH_NOT_ALLOWED');
        },
        T,
      );
    });
  });
}
