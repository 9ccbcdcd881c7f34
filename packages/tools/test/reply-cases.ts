/** Results a model meets, one or more per tool: what the reply test renders (replies.test.ts). */
import type { ToolName } from '../src/catalogue';

const page = { url: 'https://a.test/', title: 'A' };
const untitled = { url: 'https://a.test/x', title: '' };
const tab = {
  tab: 't1',
  session: 's_1',
  url: page.url,
  title: 'A',
  pinned: false,
  bound: true,
  browser: 'chrome',
};
const moved = { ...page, navigated: true };
const still = { ...page, navigated: false };
const dialogOpen = { ...still, dialog: { type: 'confirm', message: 'Sure?' } };
const opened = { ...still, openedTabs: [{ tab: 't2', url: 'https://a.test/popup' }] };
const el = { handle: 'el1', role: 'textbox', name: 'Email', tag: 'input', type: 'email', value: 'a@b.c' };
const box = {
  role: 'checkbox',
  name: 'Keep',
  tag: 'input',
  type: 'checkbox',
  checked: false,
  disabled: true,
};
const select = { role: 'combobox', name: 'Size', tag: 'select', options: ['S', 'M'], checked: true };
const link = { handle: 'el2', role: 'link', name: 'Home', tag: 'a', href: 'https://a.test/' };

export const CASES: [ToolName, Record<string, unknown>, unknown][] = [
  ['tab_open', {}, { ...tab, title: '' }],
  ['tab_open', { url: 'https://a.test/' }, tab],
  ['tab_list', {}, { tabs: [] }],
  ['tab_list', {}, { tabs: [tab, { ...tab, tab: 't2', bound: false, pinned: true, title: '' }] }],
  ['tab_select', { tab: 't2' }, { tab: 't2' }],
  ['tab_select', { tab: 't2' }, { tab: null }],
  ['tab_close', {}, { tab: 't1', closed: true }],
  ['navigate', { url: page.url }, page],
  ['navigate', { url: page.url }, { ...untitled, openedTab: 't1' }],
  ['back', {}, page],
  ['forward', {}, untitled],
  ['reload', {}, page],
  ['snapshot', {}, { ...page, snapshot: 'h1 "Hi"', totalChars: 7, truncated: false }],
  [
    'snapshot',
    {},
    {
      ...untitled,
      snapshot: 'x',
      totalChars: 1,
      truncated: true,
      notice: 'cut at 1 char',
      hiddenBlocks: 2,
      crossOriginFrames: [{ src: 'https://b.test/' }, { src: 'https://c.test/' }],
    },
  ],
  ['text', {}, { ...page, text: 'hello', totalChars: 5, truncated: false }],
  ['text', { offset: 10 }, { ...page, text: 'more', totalChars: 50, truncated: true, nextOffset: 14 }],
  ['text', {}, { ...page, text: 'a', totalChars: 9, truncated: true, nextOffset: 1, hiddenBlocks: 1 }],
  ['elements', {}, { url: page.url, elements: [], total: 0, truncated: false }],
  ['elements', {}, { url: page.url, elements: [el, box, select, link], total: 9, truncated: true }],
  [
    'elements',
    {},
    { url: page.url, elements: [el], total: 1, truncated: false, crossOriginFrames: [{ src: 'f' }] },
  ],
  ['links', {}, { url: page.url, links: [], total: 0, truncated: false }],
  [
    'links',
    {},
    { url: page.url, links: [{ handle: 'ln1', text: 'Home', href: page.url }], total: 3, truncated: true },
  ],
  ['inspect', { target: 'el1' }, { tag: 'a', role: 'link', name: 'x', visible: true }],
  ['click', { target: 'el3' }, still],
  ['click', { target: { selector: '#go' } }, moved],
  ['click', { target: 'el3' }, dialogOpen],
  ['click', { target: 'el3' }, opened],
  ['click', { target: 'el3' }, { ...moved, input: 'synthetic' }],
  ['hover', { target: 'el4' }, still],
  ['fill', { target: 'el1', value: 'x' }, still],
  ['fill', { target: { selector: 'input' }, value: 'x' }, moved],
  ['type', { text: 'abc' }, still],
  ['type', { text: 'abc', target: 'el1' }, { ...still, input: 'synthetic' }],
  ['press', { key: 'Enter' }, moved],
  ['press', { key: 'Control+A', target: 'el1' }, still],
  ['select', { target: 'el5', values: ['M'] }, { ...still, selected: ['M', 'L'] }],
  ['select', { target: 'el5', values: ['M'] }, { ...dialogOpen, selected: [] }],
  ['scroll', {}, { x: 0.4, y: 120.6, atTop: false, atBottom: false }],
  ['scroll', {}, { x: 0, y: 900, atTop: false, atBottom: true }],
  ['scroll', {}, { x: 0, y: 0, atTop: true, atBottom: false }],
  ['wait', { text: 'Done' }, { ...page, waitedMs: 12.7 }],
  ['screenshot', {}, { mimeType: 'image/png', data: 'AA==', width: 1, height: 1 }],
  ['dialog', { accept: true }, { type: 'confirm', message: 'Sure?', accepted: true }],
  ['dialog', { accept: false }, { type: 'alert', message: 'Hi', accepted: false }],
  ['session_resume', {}, { session: 's_1' }],
  ['debug_last', {}, { traces: [] }],
  ['debug_log', {}, { entries: [{ level: 'info' }] }],
  ['navigate', { url: page.url }, { ...page, notes: ['first note', 'second note'] }],
  ['screenshot', {}, { mimeType: 'image/png', data: 'AA==', width: 1, height: 1, notes: ['a note'] }],
];
