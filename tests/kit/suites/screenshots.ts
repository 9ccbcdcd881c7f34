/**
 * Part of the driver-agnostic action suite (see actions.ts): screenshots for vision models. An
 * annotated screenshot labels every actionable element in view with the handle a snapshot gives it,
 * each label on its own element (the pixel under each labelled box is that element's colour), and the
 * overlay is gone once the answer is back; `--max-width` scales the image down; `screenshot el3`
 * captures one element.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Agent } from '../agent';
import { readPng } from '../png';
import { handleIn } from './widgets';

const T = 45_000;
const MAGENTA: [number, number, number] = [255, 0, 255];

interface Shot {
  path: string;
  width: number;
  height: number;
  annotations?: { handle: string; name: string; x: number; y: number; width: number; height: number }[];
}

export function defineScreenshotTests(a: () => Agent): void {
  it(
    'screenshot --annotate labels each element in view with its snapshot handle, on that element, and leaves no overlay',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bproxy-annotate-'));
      try {
        const s = await a().session('annotate.html');
        const outline = (await a().cli.ok<{ snapshot: string }>(['snapshot', '-s', s])).snapshot;
        const expected = {
          Red: handleIn(outline, 'button', 'Red'),
          Green: handleIn(outline, 'button', 'Green'),
          Blue: handleIn(outline, 'link', 'Blue'),
        };
        const file = join(dir, 'labelled.png');
        const shot = await a().cli.ok<Shot>(['screenshot', '-s', s, '--annotate', '--out', file]);
        // Exactly the elements in view, by the handles the snapshot printed; the far button is not in view.
        expect(Object.fromEntries((shot.annotations ?? []).map((n) => [n.name, n.handle]))).toEqual(expected);
        const image = readPng(file);
        const colours: Record<string, [number, number, number]> = {
          Red: [255, 0, 0],
          Green: [0, 255, 0],
          Blue: [0, 0, 255],
        };
        for (const box of shot.annotations ?? []) {
          // The label's outline sits on the element's edge; the element shows inside it.
          expect(image.at(box.x + 1, box.y + box.height - 2)).toEqual(MAGENTA);
          expect(image.at(box.x + box.width / 2, box.y + box.height - 10)).toEqual(colours[box.name]);
        }

        // The overlay is gone: the page's root holds nothing of ours, and a plain capture shows no label.
        expect(await a().text(s)).toContain('extra root nodes now 0, at most 1');
        const plain = join(dir, 'plain.png');
        await a().cli.ok(['screenshot', '-s', s, '--out', plain]);
        const clean = readPng(plain);
        for (const box of shot.annotations ?? [])
          expect(clean.at(box.x + 1, box.y + box.height - 2)).toEqual(colours[box.name]);
        await a().close(s);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    T,
  );

  it(
    'screenshot --max-width scales the image down, and screenshot el3 captures that element',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bproxy-shots-'));
      try {
        const s = await a().session('annotate.html');
        const full = await a().cli.ok<Shot>(['screenshot', '-s', s, '--out', join(dir, 'full.png')]);
        const small = await a().cli.ok<Shot>([
          'screenshot',
          '-s',
          s,
          '--max-width',
          '300',
          '--out',
          join(dir, 'small.png'),
        ]);
        expect(small.width).toBeLessThanOrEqual(300);
        expect(small.width).toBeGreaterThanOrEqual(298);
        // Scaled down as a whole (the scaled capture spans the page's layout viewport, without its
        // scrollbar, which can differ a little from the plain capture's area).
        expect(small.height).toBeLessThan(full.height / 2);
        expect(small.height).toBeGreaterThan(full.height / 8);
        expect(readPng(join(dir, 'small.png')).width).toBe(small.width);

        const green = handleIn(
          (await a().cli.ok<{ snapshot: string }>(['snapshot', '-s', s])).snapshot,
          'button',
          'Green',
        );
        const one = await a().cli.ok<Shot>(['screenshot', '-s', s, green, '--out', join(dir, 'green.png')]);
        expect([one.width, one.height]).toEqual([200, 80]);
        expect(readPng(join(dir, 'green.png')).at(10, 10)).toEqual([0, 255, 0]);
        await a().close(s);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    T,
  );
}
