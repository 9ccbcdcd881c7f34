/** Turns a read's driver result (refs + selectors) into the agent's result (handles). */
import {
  SNAPSHOT_REF_CLOSE,
  SNAPSHOT_REF_OPEN,
  type ElementHandle,
  type ElementsDriverResult,
  type LinksDriverResult,
  type SnapshotDriverResult,
} from '@bproxy/protocol';
import { ElementHandles } from '../sessions/element-handles';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import type { CommandRouteDeps } from './types';

const target = (item: { ref: string; selector: string }) => ({ ref: item.ref, selector: item.selector });

export function mintFromResult(
  deps: CommandRouteDeps,
  session: SessionRecord,
  tab: TabRecord,
  action: 'links' | 'elements' | 'snapshot',
  data: Record<string, unknown>,
): Record<string, unknown> {
  const pageKey = ElementHandles.pageKey(tab.clientKey, tab.rawTabId);
  const scope = { session: session.id, tab: tab.handle, pageKey };
  if (typeof data.url === 'string') deps.handles.observePage(pageKey, data.url);

  if (action === 'links') {
    const result = data as LinksDriverResult;
    const handles = deps.handles.mint(
      scope,
      action,
      'ln',
      result.links.map(target),
      result.links.map((l) => `link "${l.text}"`),
    );
    const links = handles.map((handle, i) => {
      const link = result.links[i];
      return { handle, text: link?.text ?? '', href: link?.href ?? '' };
    });
    return { ...result, links, truncated: result.truncated || links.length < result.links.length };
  }
  if (action === 'elements') {
    const result = data as ElementsDriverResult;
    const handles = deps.handles.mint(
      scope,
      action,
      'el',
      result.elements.map(target),
      result.elements.map((e) => `${e.role} "${e.name}"`),
    );
    const elements = handles.map((handle, i) => {
      const {
        ref: _ref,
        selector: _selector,
        ...rest
      } = result.elements[i] ?? { ref: '', selector: '', role: '', name: '', tag: '' };
      return { handle, ...rest };
    });
    return { ...result, elements, truncated: result.truncated || elements.length < result.elements.length };
  }
  const result = data as SnapshotDriverResult;
  const byKind = (kind: 'el' | 'ln') =>
    result.refs.map((r, i) => ({ r, i })).filter((x) => x.r.kind === kind);
  const names = new Map<number, ElementHandle>();
  for (const kind of ['el', 'ln'] as const) {
    const items = byKind(kind);
    const minted = deps.handles.mint(
      scope,
      action,
      kind,
      items.map((x) => target(x.r)),
    );
    minted.forEach((handle, j) => {
      const item = items[j];
      if (item) names.set(item.i, handle);
    });
  }
  const pattern = new RegExp(`${SNAPSHOT_REF_OPEN}(\\d+)${SNAPSHOT_REF_CLOSE}`, 'g');
  const snapshot = result.snapshot.replace(pattern, (_m, index: string) => {
    const handle = names.get(Number(index));
    return handle ? `[${handle}]` : '';
  });
  const { refs: _refs, ...rest } = result;
  return { ...rest, snapshot };
}
