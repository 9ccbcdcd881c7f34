/** wait --network-idle on the CDP driver: over the tab's log, fed by its session's Network events. */
import { waitNetworkIdle } from '@bproxy/driver';
import { pageState } from '../driver/effects';
import type { HandlerDef } from './context';

/** wait --network-idle, in front of the other waits. */
export function withNetworkIdleWait(inner: HandlerDef<'wait'>): HandlerDef<'wait'> {
  return {
    async run(ctx, params, call) {
      if (params.networkIdle !== true) return inner.run(ctx, params, call);
      const tab = ctx.tab();
      const started = Date.now();
      const timeoutMs = Math.max(0, Math.min(params.timeoutMs ?? ctx.remaining(), ctx.remaining()));
      await waitNetworkIdle(tab.log, timeoutMs);
      return { ...(await pageState(tab, ctx.remaining())), waitedMs: Date.now() - started };
    },
  };
}
