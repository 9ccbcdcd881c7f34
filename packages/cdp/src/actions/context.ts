/**
 * What an action handler gets: the browser, the tab it addresses (for tab-routed actions), the time
 * left before the request's deadline, and the driver's log. The handler table itself, and the types of
 * params and results, come from the driver kit and the protocol.
 */
import type { ActionHandler, HandlerTable as KitHandlerTable } from '@bproxy/driver';
import type { ForwardedAction } from '@bproxy/protocol';
import type { ConnectedBrowser } from '../driver/connected-browser';
import type { DriverLog } from '../driver/driver-log';
import type { PageTab } from '../driver/page-tab';

export type { DriverResult } from '@bproxy/protocol';

export interface ActionContext {
  /** The tab a tab-routed action addresses; throws for client-routed ones. */
  tab(): PageTab;
  browser(): ConnectedBrowser;
  /** Milliseconds left before the request's deadline (at least 1). */
  remaining(): number;
  allocateTabId(): number;
  readonly log: DriverLog;
}

export type HandlerDef<A extends ForwardedAction> = ActionHandler<ActionContext, A>;

export type HandlerTable = KitHandlerTable<ActionContext>;
