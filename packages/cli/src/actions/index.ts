/** Every action command of the CLI, for the fast path's lookup (the commander tree has them by group). */
import { call, debugLast, debugLog, debugStatus } from './debug';
import type { ActionCommand } from './grammar';
import { click, fill, hover, press, scroll, select, typeText } from './interaction';
import { back, forward, navigate, reload } from './navigation';
import { pair } from './pairing';
import { elements, inspect, links, readText, screenshot, snapshot } from './reads';
import {
  sessionBind,
  sessionClose,
  sessionCreate,
  sessionList,
  sessionResume,
  sessionUnbind,
  tabClose,
  tabList,
  tabOpen,
  tabPin,
  tabUnpin,
} from './sessions';
import { dialog, wait } from './waiting';

export const ACTION_COMMANDS: readonly ActionCommand[] = [
  pair,
  sessionCreate,
  sessionList,
  sessionBind,
  sessionUnbind,
  sessionResume,
  sessionClose,
  tabOpen,
  tabList,
  tabClose,
  tabPin,
  tabUnpin,
  navigate,
  back,
  forward,
  reload,
  readText,
  links,
  elements,
  inspect,
  snapshot,
  screenshot,
  scroll,
  click,
  hover,
  fill,
  typeText,
  press,
  select,
  wait,
  dialog,
  debugLast,
  debugStatus,
  debugLog,
  call,
];
