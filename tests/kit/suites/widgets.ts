/**
 * Part of the driver-agnostic action suite (see actions.ts): real widget pages driven the way an
 * agent drives them — reading only bproxy's output and acting only by the handles it printed. First the
 * minimal cases of what used to go wrong (tests/fixtures/pages/repro), then a task on each jQuery UI
 * widget (tests/fixtures/pages/jquery-ui, the library served from its npm package).
 */
import { expect, it } from 'vitest';
import type { Agent } from '../agent';

const T = 45_000;

interface Effects {
  url: string;
  title: string;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The handle the snapshot printed for the element shown as `role "name"` on its own line, or as
 * `[name]` inside a line of text or links.
 */
export function handleIn(snapshot: string, role: string, name: string): string {
  const own = new RegExp(`${escape(role)} "${escape(name)}"[^\\n]*? \\[((?:el|ln)\\d+)\\]$`, 'm');
  const item = new RegExp(`\\[${escape(name)}\\]\\[((?:el|ln)\\d+)\\]`);
  const found = own.exec(snapshot)?.[1] ?? item.exec(snapshot)?.[1];
  if (found === undefined) throw new Error(`no handle for ${role} "${name}" in:\n${snapshot}`);
  return found;
}

export function defineWidgetTests(a: () => Agent): void {
  const snapshot = async (s: string): Promise<string> =>
    (await a().cli.ok<{ snapshot: string }>(['snapshot', '-s', s])).snapshot;
  const click = (s: string, handle: string): Promise<Effects> =>
    a().cli.ok<Effects>(['click', '-s', s, handle]);

  it(
    'minimal cases: href-less anchors, toolbar items, icon-only and keyboard-only controls get handles that work',
    async () => {
      const s = await a().session('repro/anchor-buttons.html');
      let outline = await snapshot(s);
      expect(outline).toContain('May 2016');
      expect((await click(s, handleIn(outline, 'clickable', 'Next'))).title).toBe('Next');

      await a().cli.ok(['navigate', '-s', s, a().url('repro/toolbar.html')]);
      outline = await snapshot(s);
      expect((await click(s, handleIn(outline, 'clickable', 'Forward'))).title).toBe('forward');
      expect((await click(s, handleIn(outline, 'clickable', 'Reply'))).title).toBe('reply');

      await a().cli.ok(['navigate', '-s', s, a().url('repro/icon-control.html')]);
      const icons = await a().elements(s);
      expect(icons.map((e) => e.name)).toEqual(['#send-mail']);
      expect((await click(s, icons[0]?.handle ?? '')).title).toBe('sent');

      await a().cli.ok(['navigate', '-s', s, a().url('repro/keyboard-box.html')]);
      outline = await snapshot(s);
      const box = /^focusable \[(el\d+)\]$/m.exec(outline)?.[1] ?? '';
      await a().cli.ok(['press', '-s', s, 'ArrowRight', '--into', box]);
      expect(await a().text(s)).toMatch(/\b6\b/);
      await a().close(s);
    },
    T,
  );

  it(
    'minimal cases: names skip hidden text, and a button clipped in a scrolling box is marked and clicked',
    async () => {
      const s = await a().session('repro/hidden-tree.html');
      expect((await a().elements(s)).map((e) => e.name)).toEqual(['Marcella']);

      await a().cli.ok(['navigate', '-s', s, a().url('repro/clipped-button.html')]);
      const outline = await snapshot(s);
      expect(outline).toMatch(/^button "Go" clipped \[el\d+\]$/m);
      expect((await click(s, handleIn(outline, 'button', 'Go'))).title).toBe('1');
      await a().close(s);
    },
    T,
  );

  it(
    'minimal case: the pointer travels from where it rested, so a menu tracking it chooses the item clicked',
    async () => {
      const s = await a().session('pointer-menu.html');
      await click(s, handleIn(await snapshot(s), 'clickable', 'Java'));
      expect(await a().text(s)).toContain('chose Java\n');
      // The items swapped places: JavaScript now sits under the resting pointer.
      await click(s, handleIn(await snapshot(s), 'clickable', 'JavaScript'));
      expect(await a().text(s)).toContain('chose JavaScript');
      await a().close(s);
    },
    T,
  );

  it(
    'jQuery UI datepicker: opens from its field, goes to the next month and picks a day',
    async () => {
      const s = await a().session('jquery-ui/datepicker.html');
      await click(s, handleIn(await snapshot(s), 'textbox', 'Date'));
      let outline = await snapshot(s);
      expect(outline).toContain('May 2016');
      await click(s, handleIn(outline, 'clickable', 'Next'));
      outline = await snapshot(s);
      expect(outline).toContain('June 2016');
      await click(s, handleIn(outline, 'link', '15'));
      // The calendar fades out: wait until it is gone, as a person would.
      const next = handleIn(outline, 'clickable', 'Next');
      await a().cli.ok(['wait', '-s', s, '--handle', next, '--state', 'hidden']);
      outline = await snapshot(s);
      expect(outline).toMatch(/^textbox "Date" value="06\/15\/2016" \[el\d+\]$/m);
      expect(outline).not.toContain('June 2016');
      await a().close(s);
    },
    T,
  );

  it(
    'jQuery UI autocomplete: types, picks a suggestion, searches again and picks another',
    async () => {
      const s = await a().session('jquery-ui/autocomplete.html');
      await a().cli.ok(['type', '-s', s, 'ja', '--into', handleIn(await snapshot(s), 'textbox', 'Language')]);
      await a().cli.ok(['wait', '-s', s, '--text', 'JavaScript']);
      await click(s, handleIn(await snapshot(s), 'clickable', 'JavaScript'));
      expect(await snapshot(s)).toMatch(/^textbox "Language" value="JavaScript" \[el\d+\]$/m);

      // A second search: its suggestions open under the resting pointer (BASIC where JavaScript was),
      // and the pick must be the one clicked.
      const field = handleIn(await snapshot(s), 'textbox', 'Language');
      await a().cli.ok(['press', '-s', s, 'Control+A', '--into', field]);
      await a().cli.ok(['type', '-s', s, 'as']);
      await a().cli.ok(['wait', '-s', s, '--text', 'Haskell']);
      await click(s, handleIn(await snapshot(s), 'clickable', 'Haskell'));
      expect(await snapshot(s)).toMatch(/^textbox "Language" value="Haskell" \[el\d+\]$/m);
      await a().close(s);
    },
    T,
  );

  it(
    'jQuery UI slider: moves its handle with the arrow keys',
    async () => {
      const s = await a().session('jquery-ui/slider.html');
      const outline = await snapshot(s);
      expect(outline).toContain('Volume: 50');
      const handle = handleIn(outline, 'clickable', '.ui-slider-handle');
      await a().cli.ok(['press', '-s', s, 'ArrowRight', '--into', handle]);
      await a().cli.ok(['press', '-s', s, 'ArrowRight']);
      await a().cli.ok(['press', '-s', s, 'ArrowRight']);
      expect(await a().text(s)).toContain('Volume: 53');
      await a().close(s);
    },
    T,
  );

  it(
    'jQuery UI menu: opens a submenu by hovering its item and chooses from it',
    async () => {
      const s = await a().session('jquery-ui/menu.html');
      await a().cli.ok(['hover', '-s', s, handleIn(await snapshot(s), 'menuitem', 'Clothing')]);
      await a().cli.ok(['wait', '-s', s, '--text', 'Hats']);
      await click(s, handleIn(await snapshot(s), 'menuitem', 'Hats'));
      expect(await a().text(s)).toContain('Chose Hats');
      await a().close(s);
    },
    T,
  );

  it(
    'jQuery UI dialog: opens a modal dialog, reads what it says and confirms it',
    async () => {
      const s = await a().session('jquery-ui/dialog.html');
      await click(s, handleIn(await snapshot(s), 'button', 'Empty the bin'));
      const outline = await snapshot(s);
      expect(outline).toMatch(/^dialog "Empty the recycle bin\?"$/m);
      expect(outline).toContain('These items will be permanently deleted and cannot be recovered.');
      await click(s, handleIn(outline, 'button', 'Delete all items'));
      const after = await snapshot(s);
      expect(after).toContain('The bin is empty');
      expect(after).not.toContain('dialog "');
      await a().close(s);
    },
    T,
  );

  it(
    'jQuery UI accordion: opens another section and reads it',
    async () => {
      const s = await a().session('jquery-ui/accordion.html');
      expect(await snapshot(s)).toMatch(/^tab "Shipping" selected expanded \[el\d+\]$/m);
      await click(s, handleIn(await snapshot(s), 'tab', 'Payment'));
      await a().cli.ok(['wait', '-s', s, '--text', 'Mastercard']);
      const outline = await snapshot(s);
      expect(outline).toMatch(/^tab "Payment" selected expanded \[el\d+\]$/m);
      expect(outline).toMatch(/^tab "Shipping" \[el\d+\]$/m);
      expect(outline).toContain('text: Mastercard');
      await a().close(s);
    },
    T,
  );
}
