/**
 * Successful results as short text for a language model, one small entry per action. An action says
 * what changed (a navigation, a dialog, a tab its page opened, input the page could tell from a
 * person's) in one line instead of dumping the page; reads keep their handles next to what they name;
 * capped reads end with how to get the rest; the session's notes (the session went back to another
 * tab, a tab opened meanwhile) follow on their own lines. Screenshots are image blocks. An action
 * without an entry (a new one, inspect, the debug reads) answers its result as one line of JSON.
 */
import type { ActionDiff, ActionName, ActionResult, Download } from '@bproxy/protocol';
import { TOOLS_BY_NAME, type ToolName } from './catalogue';
import { textReply, type ToolReply } from './errors';

type Effects = ActionResult<'click'> | ActionResult<'fill'> | ActionResult<'hover'>;

function page(url: string, title: string): string {
  return title === '' ? url : `${url} "${title}"`;
}

/** What an interaction changed: nothing, a navigation, a dialog now open, tabs opened; synthetic input. */
function effects(done: string, result: Effects): string {
  let line = done;
  if ('input' in result && result.input === 'synthetic')
    line += ' (synthetic input: this tab refused trusted input, so the page saw script events)';
  if (result.navigated) line += ` → navigated to ${page(result.url, result.title)}; old handles are stale`;
  if (result.dialog !== undefined)
    line += `; ${result.dialog.type} dialog open: "${result.dialog.message}" (answer with dialog)`;
  for (const opened of result.openedTabs ?? [])
    line += `; opened ${opened.tab} ${opened.url} (tab_select ${opened.tab} to act in it)`;
  for (const d of result.downloads ?? []) line += `; download ${downloadLine(d)}`;
  return line + actionDiff('diff' in result ? result.diff : undefined);
}

/** One download: its file, size, state, and the code of one bproxy stopped. */
function downloadLine(d: Download): string {
  return `${d.file} (${d.bytes} bytes, ${d.state}${d.code === undefined ? '' : ` ${d.code}`})`;
}

/** What a snapshot diff holds, said after the page line. */
const DIFF_HEAD = {
  first: '(whole: first snapshot here)',
  navigated: '(whole: new page)',
  changes: '(changes)',
} as const;

/** The snapshot diff an action was asked for, after its line. */
function actionDiff(diff: ActionDiff | undefined): string {
  if (diff === undefined) return '';
  const notice = diff.notice === undefined ? '' : `\n[${diff.notice}]`;
  return `\n${DIFF_HEAD[diff.kind]}${diff.snapshot === '' ? '' : `\n${diff.snapshot}`}${notice}`;
}

/** The labels of an annotated screenshot: handle, name, and where (x,y in image pixels). */
function labelList(list: NonNullable<ActionResult<'screenshot'>['annotations']>): string {
  if (list.length === 0) return 'no actionable element in view';
  return `labelled: ${list.map((a) => `${a.handle} "${a.name}" @${a.x},${a.y}`).join('; ')}`;
}

function targetName(target: unknown): string {
  if (typeof target === 'string') return target;
  if (typeof target === 'object' && target !== null && 'selector' in target)
    return `"${String((target as { selector: unknown }).selector)}"`;
  return '';
}

function frames(list: { src: string; reason?: string }[] | undefined): string {
  if (list === undefined || list.length === 0) return '';
  const named = list.map((f) => (f.reason === undefined ? f.src : `${f.src} (${f.reason})`));
  return `\nCross-origin frames not read: ${named.join(', ')}`;
}

/** Items of a read, with a `frame ORIGIN:` line before each run of items from one cross-origin frame. */
function inFrames<T extends { frame?: string }>(items: readonly T[], line: (item: T) => string): string {
  let frame: string | undefined;
  const out: string[] = [];
  for (const item of items) {
    if (item.frame !== frame) {
      frame = item.frame;
      out.push(frame === undefined ? 'page:' : `frame ${frame}:`);
    }
    out.push(line(item));
  }
  return out.join('\n');
}

/** One short line when a read left out text a person could not see. */
function hidden(blocks: number | undefined): string {
  if (blocks === undefined) return '';
  return `\n(hidden text left out: ${blocks} ${blocks === 1 ? 'block' : 'blocks'})`;
}

function more(shown: string, truncated: boolean, total: number): string {
  return truncated ? `\n[${shown} of ${total}; call with a higher limit or contains= to narrow]` : '';
}

/** console and network: their lines, and how to get the rest when capped. */
function observed(r: ActionResult<'console'>, tool: string, none: string): string {
  const dropped = r.dropped === undefined ? '' : `\n[${r.dropped} older entries were let go]`;
  const rest =
    r.nextOffset === undefined
      ? ''
      : `\n[${r.shown} of ${r.total} from here; call ${tool} with offset=${r.nextOffset} for more]`;
  return `${r.text === '' ? none : r.text}${rest}${dropped}`;
}

function elementLine(e: ActionResult<'elements'>['elements'][number]): string {
  const bits = [`${e.handle} ${e.role} "${e.name}"`];
  if (e.type !== undefined && e.type !== e.role) bits.push(`type=${e.type}`);
  if (e.value !== undefined && e.value !== '') bits.push(`value="${e.value}"`);
  if (e.checked !== undefined) bits.push(e.checked ? 'checked' : 'unchecked');
  if (e.disabled === true) bits.push('disabled');
  if (e.href !== undefined) bits.push(`→ ${e.href}`);
  if (e.options !== undefined) bits.push(`options=[${e.options.join('|')}]`);
  return bits.join(' ');
}

/** A reply: one text block (most), or the whole reply (an image). */
type Reply = string | ToolReply;
type Params = Record<string, unknown>;

const atPage = (r: ActionResult<'back'>): string => `at ${page(r.url, r.title)}`;

/**
 * Each action's reply, from its checked result and the arguments it was called with. An action
 * without an entry answers its result as one line of JSON.
 */
const REPLIES: { readonly [A in ActionName]?: (result: ActionResult<A>, params: Params) => Reply } = {
  'tab.open': (r) => `opened ${r.tab} (current) in ${r.browser}: ${page(r.url, r.title)}`,
  'tab.list': (r) =>
    r.tabs.length === 0
      ? 'no tabs; call tab_open'
      : r.tabs
          .map(
            (t) =>
              `${t.tab}${t.bound ? ' (current)' : ''}${t.pinned ? ' pinned' : ''} ${page(t.url, t.title)}`,
          )
          .join('\n'),
  'session.bind': (r) => `current tab: ${r.tab ?? 'none'}`,
  'tab.close': (r) => `closed ${r.tab}`,
  navigate: (r) =>
    `${r.openedTab === undefined ? '' : `opened ${r.openedTab} (current); `}at ${page(r.url, r.title)}`,
  back: atPage,
  forward: atPage,
  reload: atPage,
  snapshot: (r) => {
    const notice = r.notice === undefined ? '' : `\n[${r.notice}]`;
    const kind = r.diff === undefined ? '' : ` ${DIFF_HEAD[r.diff]}`;
    const body = r.snapshot === '' ? '' : `\n${r.snapshot}`;
    return `${page(r.url, r.title)}${kind}${body}${notice}${hidden(r.hiddenBlocks)}${frames(r.crossOriginFrames)}`;
  },
  text: (r, params) => {
    const start = typeof params.offset === 'number' ? params.offset : 0;
    const notice =
      r.nextOffset === undefined
        ? ''
        : `\n[chars ${start}-${r.nextOffset} of ${r.totalChars}; call text with offset=${r.nextOffset} for more]`;
    return `${r.text}${notice}${hidden(r.hiddenBlocks)}${frames(r.crossOriginFrames)}`;
  },
  elements: (r) =>
    `${inFrames(r.elements, elementLine) || 'no actionable elements'}${more(`${r.elements.length}`, r.truncated, r.total)}${frames(r.crossOriginFrames)}`,
  links: (r) =>
    `${inFrames(r.links, (l) => `${l.handle} "${l.text}" → ${l.href}`) || 'no links'}${more(`${r.links.length}`, r.truncated, r.total)}${frames(r.crossOriginFrames)}`,
  click: (r, params) => effects(`clicked ${targetName(params.target)}`, r),
  hover: (r, params) => effects(`hovered ${targetName(params.target)}`, r),
  drag: (r, params) => effects(`dragged ${targetName(params.target)} onto ${targetName(params.to)}`, r),
  drop: (r, params) =>
    effects(
      `dropped ${r.files.map((f) => `${f.file} (${f.bytes} bytes)`).join(', ')} onto ${targetName(params.target)}`,
      r,
    ),
  fill: (r, params) => effects(`filled ${targetName(params.target)}`, r),
  type: (r, params) => effects(`typed into ${targetName(params.target) || 'the focus'}`, r),
  press: (r, params) => effects(`pressed ${String(params.key)}`, r),
  select: (r, params) =>
    effects(`selected ${r.selected.map((s) => `"${s}"`).join(', ')} in ${targetName(params.target)}`, r),
  scroll: (r) => {
    const edge = r.atBottom ? ' (at bottom)' : r.atTop ? ' (at top)' : '';
    return `scrolled to x=${Math.round(r.x)} y=${Math.round(r.y)}${edge}`;
  },
  wait: (r) =>
    `done after ${Math.round(r.waitedMs)} ms; at ${page(r.url, r.title)}${r.consoleError === undefined ? '' : `\n${r.consoleError}`}${r.download === undefined ? '' : `\ndownload ${downloadLine(r.download)}`}`,
  downloads: (r) => r.downloads.map(downloadLine).join('\n') || 'no downloads',
  console: (r) => observed(r, 'console', 'no console messages'),
  network: (r) => observed(r, 'network', 'no requests'),
  screenshot: (r) => ({
    content: [
      { type: 'image', data: r.data, mimeType: r.mimeType },
      ...(r.annotations === undefined ? [] : [{ type: 'text' as const, text: labelList(r.annotations) }]),
    ],
  }),
  dialog: (r) => `${r.accepted ? 'accepted' : 'dismissed'} ${r.type} "${r.message}"`,
  'session.resume': () => 'resumed; read the page again (snapshot) before acting',
};

function render(tool: ToolName, params: Params, data: unknown): ToolReply {
  const action = TOOLS_BY_NAME.get(tool)?.action;
  // Each entry reads its own action's result; `data` was checked against that action's schema.
  const replies: { readonly [A in ActionName]?: (result: never, params: Params) => Reply } = REPLIES;
  const entry = action === undefined ? undefined : replies[action];
  const reply = entry === undefined ? JSON.stringify(data) : entry(data as never, params);
  return typeof reply === 'string' ? textReply(reply) : reply;
}

/** Renders `data` (already checked against the action's result schema) for the tool that asked. */
export function successReply(tool: ToolName, params: Params, data: unknown): ToolReply {
  const reply = render(tool, params, data);
  const notes = (data as { notes?: unknown }).notes;
  if (!Array.isArray(notes) || notes.length === 0) return reply;
  const text = notes.map((note) => `Note: ${String(note)}`).join('\n');
  const [first, ...rest] = reply.content;
  // Notes join the one line of a text reply; an image reply gets them as a text block of their own.
  if (first?.type === 'text')
    return { ...reply, content: [{ type: 'text', text: `${first.text}\n${text}` }, ...rest] };
  return { ...reply, content: [...reply.content, { type: 'text', text }] };
}
