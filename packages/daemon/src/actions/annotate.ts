/**
 * `screenshot` with `annotate`: first a read of the actionable elements in view (the page script's
 * snapshot walk, `inView`), whose refs get their handles as any snapshot's do — the same handle for the
 * same node, so the labels match the snapshot's handles exactly; then the screenshot, with `labels`
 * (ref → handle) for the driver to draw while it captures. The answer lists the elements labelled, by
 * handle, with their boxes in image pixels. Both requests go the forwarded path (admission, the tab's
 * queue, the deadline) as reads of their own.
 */
import type { ElementHandle, ElementHandlePrefix, RequestId, SnapshotDriverResult } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { ElementHandles } from '../sessions/element-handles';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { forward, type ForwardTarget } from './dispatch';
import type { CommandContext, CommandRouteDeps } from './types';

interface DriverAnnotation {
  ref: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export async function annotatedScreenshot(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  tab: TabRecord,
  resolveTarget: () => ForwardTarget | DriverOutcome,
  params: Record<string, unknown>,
): Promise<DriverOutcome> {
  const id =
    `${ctx.request.id.slice(0, 100)}.inview-${Math.floor(deps.random() * 2 ** 32).toString(36)}` as RequestId;
  const readParams = { inView: true };
  const read: CommandContext = {
    request: { ...ctx.request, id, action: 'snapshot', params: readParams },
    deadlineMono: ctx.deadlineMono,
    receivedMono: deps.clock.monotonic(),
  };
  const found = await forward(deps, read, session, resolveTarget, readParams);
  if (!found.ok) return found;
  const inView = found.data as SnapshotDriverResult;
  const pageKey = ElementHandles.pageKey(tab.clientKey, tab.rawTabId);
  deps.handles.observePage(pageKey, inView.url);
  const handleOf = new Map<string, ElementHandle>();
  for (const kind of ['el', 'ln'] as const satisfies readonly ElementHandlePrefix[]) {
    const items = inView.refs.filter((r) => r.kind === kind);
    const minted = deps.handles.mint(
      { session: session.id, tab: tab.handle, pageKey },
      'screenshot',
      kind,
      items.map((r) => ({ ref: r.ref, selector: r.selector })),
    );
    minted.forEach((handle, i) => {
      const item = items[i];
      if (item) handleOf.set(item.ref, handle);
    });
  }
  const labels = [...handleOf].map(([ref, label]) => ({ ref, label }));
  const shot = await forward(deps, ctx, session, resolveTarget, { ...params, labels });
  if (!shot.ok) return shot;
  const { annotations: drawn, ...image } = shot.data as Record<string, unknown> & {
    annotations?: DriverAnnotation[];
  };
  const annotations = (drawn ?? []).flatMap(({ ref, ...box }) => {
    const handle = handleOf.get(ref);
    return handle === undefined ? [] : [{ handle, ...box }];
  });
  return { ok: true, data: { ...image, annotations } };
}
