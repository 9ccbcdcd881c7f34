/**
 * The table of every action this driver executes: exactly the protocol actions routed 'tab' or
 * 'client'. The type makes a missing or extra entry a compile error.
 */
import type { HandlerTable } from './context';
import { click, drag, drop, fill, hover, press, scroll, select, type } from './interaction-actions';
import { pdf, upload } from './files-actions';
import { debugLog, dialog, wait } from './misc-actions';
import { withNetworkIdleWait } from './network-idle-wait';
import {
  consoleRead,
  networkGetRead,
  networkHarRead,
  networkRead,
  withConsoleErrorWait,
} from './observe-actions';
import { back, forward, navigate, reloadPage } from './navigation-actions';
import { elements, inspect, links, screenshot, snapshot, text } from './read-actions';
import { tabClose, tabOpen, tabPin, tabUnpin } from './tab-actions';
import { cookiesClear, cookiesList, cookiesSet, emulate, stateLoad, stateSave } from './state-actions';

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
  drop,
  fill,
  type,
  press,
  select,
  wait: withNetworkIdleWait(withConsoleErrorWait(wait)),
  dialog,
  upload,
  pdf,
  'state.save': stateSave,
  'state.load': stateLoad,
  'cookies.list': cookiesList,
  'cookies.set': cookiesSet,
  'cookies.clear': cookiesClear,
  emulate,
  console: consoleRead,
  network: networkRead,
  'network.get': networkGetRead,
  'network.har': networkHarRead,
  'debug.log': debugLog,
};
