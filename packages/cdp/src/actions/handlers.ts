/**
 * The table of every action this driver executes: exactly the protocol actions routed 'tab' or
 * 'client'. The type makes a missing or extra entry a compile error.
 */
import type { HandlerTable } from './context';
import { click, drag, fill, hover, press, scroll, select, type } from './interaction-actions';
import { debugLog, dialog, wait } from './misc-actions';
import { back, forward, navigate, reloadPage } from './navigation-actions';
import { elements, inspect, links, screenshot, snapshot, text } from './read-actions';
import { tabClose, tabOpen, tabPin, tabUnpin } from './tab-actions';

export const HANDLERS: HandlerTable = {
  'tab.open': tabOpen,
  'tab.close': tabClose,
  'tab.pin': tabPin,
  'tab.unpin': tabUnpin,
  navigate,
  back,
  forward,
  reload: reloadPage,
  text,
  links,
  elements,
  inspect,
  snapshot,
  screenshot,
  scroll,
  click,
  hover,
  drag,
  fill,
  type,
  press,
  select,
  wait,
  dialog,
  'debug.log': debugLog,
};
