/** `text`: the visible text of the page or a subtree, paged by `offset` and `maxChars`. */
import type { ActionResult } from '@bproxy/protocol';
import type { PageContext } from '../context';
import { FrameReport } from '../dom/flat-tree';
import { readRoot } from '../dom/resolve';
import { aiFlag } from '../dom/page-flags';
import { UnseenText } from '../dom/unseen';
import { optNumber, optTarget, type Params } from '../params';
import { visibleText } from '../render/visible-text';

const DEFAULT_MAX_CHARS = 20_000;

export function text(ctx: PageContext, p: Params): ActionResult<'text'> {
  const maxChars = optNumber(p, 'maxChars') ?? DEFAULT_MAX_CHARS;
  const offset = optNumber(p, 'offset') ?? 0;
  const frames = new FrameReport();
  const unseen = new UnseenText();
  // A line that addresses an AI assistant ends with its flag (page-flags.ts).
  const all = visibleText(readRoot(optTarget(p), ctx.registry), frames, unseen)
    .split('\n')
    .map((line) => line + aiFlag(line))
    .join('\n');
  const end = Math.min(all.length, offset + maxChars);
  const result: ActionResult<'text'> = {
    url: location.href,
    title: document.title,
    text: all.slice(offset, end),
    totalChars: all.length,
    truncated: offset > 0 || end < all.length,
    ...frames.field((el) => ctx.registry.refFor(el)),
  };
  if (unseen.blocks > 0) result.hiddenBlocks = unseen.blocks;
  if (end < all.length) result.nextOffset = end;
  return result;
}
