/**
 * The CDP driver's side of trusted input (the driver kit's TrustedPage): Input.dispatch* through the
 * tab's own session, the page's `locate` and the human check through the page bundle, keyboard focus
 * through the kit's focusAtPoint in the isolated world. The pointer rests on the PageTab.
 */
import type { LocateResult } from '@bproxy/page';
import type { ElementTarget } from '@bproxy/protocol';
import {
  FOCUS_AT_POINT,
  dragWatch,
  fail,
  scrolledOf,
  type InputSender,
  type LocatedPoint,
  type TrustedPage,
} from '@bproxy/driver';
import { callInWorld, runPage } from '../driver/page-runner';
import type { PageTab } from '../driver/page-tab';

/** `enabled: false` lets a disabled element through (hovering one is fine; pressing one is not). */
async function locate(
  tab: PageTab,
  target: ElementTarget,
  timeoutMs: number,
  enabled: boolean,
  at?: { x: number; y: number },
): Promise<LocatedPoint> {
  const data = await runPage(
    tab,
    'locate',
    { target, enabled, ...(at === undefined ? {} : { at }) },
    { timeoutMs, checkHuman: true, retryOnNavigation: true },
  );
  const point = data as Partial<Record<keyof LocateResult, unknown>> | null;
  if (
    point === null ||
    typeof point !== 'object' ||
    typeof point.x !== 'number' ||
    typeof point.y !== 'number'
  ) {
    fail('DRIVER_ERROR', 'locate: the page did not answer a point { x, y }');
  }
  return { x: point.x, y: point.y, ...scrolledOf(point) };
}

/** One page round trip that only checks whether a person is needed. */
export async function checkHuman(tab: PageTab, timeoutMs: number): Promise<void> {
  await runPage(tab, 'pageInfo', {}, { timeoutMs, checkHuman: true, retryOnNavigation: true });
}

/** `tab` as the kit's TrustedPage; every call is bounded by `remaining()`, the request's time left. */
export function trustedPage(tab: PageTab, remaining: () => number): TrustedPage {
  const input: InputSender = {
    send: (method, params) => tab.session.send(method, params, remaining()),
    watchDrags: () => dragWatch((seen) => tab.session.on('Input.dragIntercepted', (e) => seen(e.data))),
  };
  return {
    input,
    rest: tab,
    locate: (target, enabled, at) => locate(tab, target, remaining(), enabled, at),
    focusAt: async (point, caretToEnd) =>
      (await callInWorld(tab, FOCUS_AT_POINT, [point.x, point.y, caretToEnd], remaining())) === true,
    checkHuman: () => checkHuman(tab, remaining()),
  };
}
