/** Routes an action to its handler and turns the outcome into a PageResult. */
import { maskSecrets, mayNavigate } from '@bproxy/protocol/plain';
import { PAGE_ACTIONS, type PageAction, type PageResult } from './api';
import { annotateHide, annotateShow } from './actions/annotate';
import { detectHuman } from './actions/detect-human';
import { elements, links } from './actions/elements';
import { fill } from './actions/fill';
import { inspect } from './actions/inspect';
import { press, type } from './actions/keyboard';
import { locate } from './actions/locate';
import { pageInfo } from './actions/page-info';
import { click, hover } from './actions/pointer-actions';
import { scroll } from './actions/scroll';
import { select } from './actions/select';
import { snapshot } from './actions/snapshot';
import { text } from './actions/text';
import { wait } from './actions/wait';
import { frameBox } from './frames/frame-box';
import { frameProbe } from './frames/frame-probe';
import { watchNavigation } from './actions/navigation-watch';
import type { PageContext } from './context';
import { failure, PageError } from './errors';
import { asParams, type Params } from './params';
import { sameStylesDuring } from './dom/visibility';

type Handler = (ctx: PageContext, p: Params) => unknown;

/**
 * Interactions whose `navigated` answer says whether they asked the page to navigate: the actions the
 * protocol flags `mayNavigate` (the flag the drivers read to follow such a navigation).
 */
const MAY_NAVIGATE: ReadonlySet<string> = new Set(PAGE_ACTIONS.filter(mayNavigate));

/** A synchronous read, with each element's computed style looked up once. */
const read =
  (handler: Handler): Handler =>
  (ctx, p) =>
    sameStylesDuring(() => handler(ctx, p));

const HANDLERS: Readonly<Record<PageAction, Handler>> = {
  text: read(text),
  links: read(links),
  elements: read(elements),
  inspect: read(inspect),
  snapshot: read(snapshot),
  scroll,
  click,
  hover,
  fill,
  type,
  press,
  select,
  wait,
  locate,
  detectHuman,
  pageInfo,
  annotateShow,
  annotateHide,
  frameBox,
  frameProbe,
};

/** Runs the action; a value filled from a secret in this document never shows in the answer. */
export async function run(ctx: PageContext, action: PageAction, params: unknown): Promise<PageResult> {
  return maskSecrets(await runUnmasked(ctx, action, params), ctx.secrets);
}

async function runUnmasked(ctx: PageContext, action: PageAction, params: unknown): Promise<PageResult> {
  try {
    const handler = Object.prototype.hasOwnProperty.call(HANDLERS, action) ? HANDLERS[action] : undefined;
    if (handler === undefined)
      throw new PageError('UNSUPPORTED_ACTION', `the page script has no action "${String(action)}"`);
    const navigation = MAY_NAVIGATE.has(action) ? watchNavigation() : null;
    let data: unknown;
    try {
      data = await handler(ctx, asParams(params));
    } finally {
      const navigated = navigation?.();
      if (navigated !== undefined && data !== null && typeof data === 'object') {
        (data as { navigated?: boolean }).navigated = navigated;
      }
    }
    return { ok: true, data };
  } catch (error) {
    return failure(error);
  }
}
