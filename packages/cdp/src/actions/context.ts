/**
 * What an action handler gets: the browser, the tab it addresses (for tab-routed actions), the time
 * left before the request's deadline, and the driver's log. Types of params and results come from the
 * protocol's forwarded and driver-result schemas.
 */
import type { z } from 'zod';
import type { ACTIONS, ActionName } from '@bproxy/protocol';
import type { BrowserSession } from '../driver/browser-session';
import type { DriverLog } from '../driver/driver-log';
import type { PageTab } from '../driver/page-tab';

type Def<A extends ActionName> = (typeof ACTIONS)[A];

export type Forwarded<A extends ActionName> =
  Def<A> extends { forwarded: infer S extends z.ZodType } ? z.output<S> : z.output<Def<A>['params']>;
export type DriverResult<A extends ActionName> =
  Def<A> extends { driverResult: infer S extends z.ZodType } ? z.output<S> : z.output<Def<A>['result']>;

/** The actions a driver executes (routing 'tab' or 'client'). */
export type DriverAction = {
  [A in ActionName]: Def<A>['routing'] extends 'local' ? never : A;
}[ActionName];

export interface ActionContext {
  /** The tab a tab-routed action addresses; throws for client-routed ones. */
  tab(): PageTab;
  browser(): BrowserSession;
  /** Milliseconds left before the request's deadline (at least 1). */
  remaining(): number;
  allocateTabId(): number;
  readonly log: DriverLog;
}

export interface HandlerDef<A extends DriverAction> {
  /** 'none': needs no browser (debug.log); 'browser': starts one if needed (tab.open); 'tab': an existing tab. */
  needs: 'none' | 'browser' | 'tab';
  /** Runs while a JavaScript dialog is open in the tab (everything else gets DIALOG_OPEN). */
  allowedWithDialog?: boolean;
  run(ctx: ActionContext, params: Forwarded<A>): Promise<DriverResult<A>>;
}

export type HandlerTable = { [A in DriverAction]: HandlerDef<A> };
