/**
 * wait --network-idle on the extension: over the driven tab's log, fed by the debugger it attaches to
 * the tab (requests started before the debugger was first attached are not seen).
 */
import { waitNetworkIdle } from '@bproxy/driver';
import { type ActionHandler, tabIdOf } from './context';
import { logOf } from './observe-actions';
import { pageState } from './tab-state';

/** wait --network-idle, in front of the other waits. */
export function withNetworkIdleWait(inner: ActionHandler<'wait'>): ActionHandler<'wait'> {
  return {
    async run(ctx, params, call) {
      if (params.networkIdle !== true) return inner.run(ctx, params, call);
      const tabId = tabIdOf(call);
      const log = await logOf(ctx, tabId, 'wait');
      const started = ctx.now();
      const timeoutMs = Math.max(
        0,
        Math.min(params.timeoutMs ?? call.deadline - started, call.deadline - started),
      );
      await waitNetworkIdle(log, timeoutMs);
      return { ...(await pageState(ctx, tabId, 'wait')), waitedMs: ctx.now() - started };
    },
  };
}
