/**
 * Visible text in reading order, close to innerText but through open shadow roots and same-origin
 * frames: hidden, transparent and script-like content is skipped, blocks break lines, table cells are
 * separated by tabs and whitespace collapses as it renders. Given an `UnseenText`, text a person could
 * not see although it is rendered (off the page, clipped, tiny, the background's colour, covered) is
 * left out too, and counted there.
 */
import { flatChildren, isElement, type FrameReport } from '../dom/flat-tree';
import type { UnseenText } from '../dom/unseen';
import { styleOf } from '../dom/visibility';

const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'svg',
  'canvas',
  'select',
  'textarea',
  'input',
  'option',
]);

export function visibleText(root: Node, frames: FrameReport, unseen?: UnseenText): string {
  const lines: string[] = [];
  let current = '';
  const breakLine = (): void => {
    const line = current.replace(/[ \f\n\r\v]+/g, ' ').trim();
    if (line !== '') lines.push(line);
    current = '';
  };
  const visit = (node: Node, textVisible: boolean, pre: boolean): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (!textVisible) return;
      if (unseen !== undefined && !unseen.shows(node as Text)) return;
      const value = node.nodeValue ?? '';
      if (!pre) {
        current += value;
        return;
      }
      const parts = value.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) breakLine();
        current += part;
      });
      return;
    }
    if (!isElement(node)) return;
    const tag = node.localName;
    if (SKIP.has(tag)) return;
    if (tag === 'br') {
      breakLine();
      return;
    }
    const style = styleOf(node);
    const display = style.display;
    if (display === 'none' || style.opacity === '0') return;
    const visible = style.visibility === 'visible';
    const block = !(display.startsWith('inline') || display === 'contents' || display === 'table-cell');
    const isPre = style.whiteSpace.startsWith('pre') || style.whiteSpace === 'break-spaces';
    if (block) breakLine();
    if (display === 'table-cell' && current.trim() !== '') current += '\t';
    for (const child of flatChildren(node, frames)) visit(child, visible, isPre);
    if (block) breakLine();
    else if (display.startsWith('inline-')) current += ' ';
  };
  visit(root, true, false);
  breakLine();
  return lines.join('\n');
}
