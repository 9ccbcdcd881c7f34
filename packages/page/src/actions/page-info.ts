/** `pageInfo`: the document's URL and title. */
import type { PageInfoResult } from '../api';

export function pageInfo(): PageInfoResult {
  return { url: location.href, title: document.title };
}
