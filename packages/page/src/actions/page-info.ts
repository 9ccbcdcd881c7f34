/** `pageInfo`: the document's URL and title, and its mark (api.ts DocumentMark). */
import type { PageInfoResult } from '../api';
import type { PageContext } from '../context';
import { documentMark } from './locate';

export function pageInfo(ctx: PageContext): PageInfoResult {
  return { ...documentMark(ctx), title: document.title };
}
