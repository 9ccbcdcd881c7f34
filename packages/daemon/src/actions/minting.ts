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
import { diffSnapshot } from './snapshot-diff';
import { snapshotNames } from './snapshot-names';

const target = (item: { ref: string; selector: string }) => ({ ref: item.ref, selector: item.selector });

type Scope = { session: SessionRecord['id']; tab: TabRecord['handle']; pageKey: string };

export function mintFromResult(
  deps: CommandRouteDeps,
  session: SessionRecord,
  tab: TabRecord,
  action: 'links' | 'elements' | 'snapshot',
  data: Record<string, unknown>,
  params: Record<string, unknown> = {},
): Record<string, unknown> {
  const pageKey = ElementHandles.pageKey(tab.clientKey, tab.rawTabId);
  const scope: Scope = { session: session.id, tab: tab.handle, pageKey };
  if (typeof data.url === 'string') deps.handles.observePage(pageKey, data.url);
  if (action === 'links') return mintLinks(deps, scope, data as LinksDriverResult);
  if (action === 'elements') return mintElements(deps, scope, data as ElementsDriverResult);
  const minted = mintSnapshot(deps, scope, data as SnapshotDriverResult);
  return params.diff === true
    ? snapshotDiff(deps, scope, params, data as SnapshotDriverResult, minted)
    : minted;
}

/** The scope a snapshot diff compares within: what was asked, not when. */
function diffScope(params: Record<string, unknown>): string {
  return JSON.stringify([
    params.target ?? null,
    params.contains ?? null,
    params.offset ?? 0,
    params.maxChars ?? null,
  ]);
}

/**
 * `snapshot` with `diff`: the whole outline the first time in a scope and after a navigation (said in
 * `diff`), else only the lines that changed since this session's last snapshot of the tab and scope.
 */
function snapshotDiff(
  deps: CommandRouteDeps,
  scope: Scope,
  params: Record<string, unknown>,
  driver: SnapshotDriverResult,
  minted: Record<string, unknown>,
): Record<string, unknown> {
  const text = typeof minted.snapshot === 'string' ? minted.snapshot : '';
  const page = deps.handles.pageOf(scope.pageKey);
  const key = diffScope(params);
  const before = deps.handles.snapshots.get(scope.session, scope.tab, key);
  const now = {
    epoch: page?.epoch ?? -1,
    lines: text === '' ? [] : text.split('\n'),
    longText: driver.longText ?? [],
  };
  deps.handles.snapshots.set(scope.session, scope.tab, key, now);
  if (params.target === undefined && params.contains === undefined && (params.offset ?? 0) === 0)
    deps.handles.snapshots.setWholeCap(
      scope.session,
      scope.tab,
      typeof params.maxChars === 'number' ? params.maxChars : null,
    );
  if (before === undefined) return { ...minted, diff: 'first' };
  if (before.epoch !== now.epoch) return { ...minted, diff: 'navigated' };
  const changes = diffSnapshot(before, now);
  const { notice: _notice, hiddenBlocks: _hidden, ...rest } = minted;
  const notice =
    changes.length === 0
      ? 'No change since your last snapshot.'
      : driver.truncated && driver.nextOffset !== undefined
        ? `Changes in this part only; the outline continues at offset=${driver.nextOffset}.`
        : undefined;
  return {
    ...rest,
    snapshot: changes.join('\n'),
    diff: 'changes',
    ...(notice === undefined ? {} : { notice }),
  };
}

function mintLinks(deps: CommandRouteDeps, scope: Scope, result: LinksDriverResult): Record<string, unknown> {
  const handles = deps.handles.mint(
    scope,
    'links',
    'ln',
    result.links.map(target),
    result.links.map((l) => `link "${l.text}"`),
  );
  const links = handles.map((handle, i) => {
    const link = result.links[i];
    const frame = link?.frame;
    return {
      handle,
      text: link?.text ?? '',
      href: link?.href ?? '',
      ...(frame === undefined ? {} : { frame }),
    };
  });
  return { ...result, links, truncated: result.truncated || links.length < result.links.length };
}

function mintElements(
  deps: CommandRouteDeps,
  scope: Scope,
  result: ElementsDriverResult,
): Record<string, unknown> {
  const handles = deps.handles.mint(
    scope,
    'elements',
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

/** The snapshot's refs become handles (elements, then links), written into its text where they stood. */
function mintSnapshot(
  deps: CommandRouteDeps,
  scope: Scope,
  result: SnapshotDriverResult,
): Record<string, unknown> {
  const names = new Map<number, ElementHandle>();
  const called = snapshotNames(result.snapshot);
  for (const kind of ['el', 'ln'] as const) {
    const items = result.refs.map((r, i) => ({ r, i })).filter((x) => x.r.kind === kind);
    const minted = deps.handles.mint(
      scope,
      'snapshot',
      kind,
      items.map((x) => target(x.r)),
      items.map((x) => called.get(x.i)),
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
  const { refs: _refs, longText: _longText, ...rest } = result;
  return { ...rest, snapshot };
}
