/**
 * Successful results as short text for a language model, one small entry per action. An action says
 * what changed (a navigation, a dialog, a tab its page opened, input the page could tell from a
 * person's) in one line instead of dumping the page; reads keep their handles next to what they name;
 * capped reads end with how to get the rest; the session's notes (the session went back to another
 * tab, a tab opened meanwhile) follow on their own lines. Screenshots are image blocks. An action
 * without an entry (a new one, inspect, the debug reads) answers its result as one line of JSON.
 *
 * Every reply that carries text from the page (a title, an outline, a dialog's message, console lines,
 * the notes) holds it in one fence of untrusted data (untrusted.ts); bproxy's own words — what was
 * done, how to get the rest, what was left out — stay outside it. An entry says which part is which;
 * an action without an entry is fenced whole.
 */
import type { ActionDiff, ActionName, ActionResult, Download } from '@bproxy/protocol';
import { TOOLS_BY_NAME, type ToolName } from './catalogue';
import { textReply, type ToolReply } from './errors';
import { fenceUntrusted } from './untrusted';

type Effects = ActionResult<'click'> | ActionResult<'fill'> | ActionResult<'hover'>;

function page(url: string, title: string): string {
  return title === '' ? url : `${url} "${title}"`;
}

/**
 * A reply in parts: `lead`, bproxy's own words first; `page`, what holds text from the page (fenced);
 * `tail`, bproxy's notices after it. Empty parts are left out.
 */
export interface ReplyParts {
  readonly lead?: string;
  readonly page?: string;
  readonly tail?: string;
}

const own = (lead: string): ReplyParts => ({ lead });

/**
 * What an interaction changed: nothing, a navigation, a dialog now open, tabs opened; synthetic input.
 * When anything of the page is in it (a title, a dialog's message, an opened URL, the diff), the line
 * and the diff are page text; the diff's notice stays outside.
 */
function effects(done: string, result: Effects): ReplyParts {
  let line = done;
  if ('input' in result && result.input === 'synthetic')
    line += ' (synthetic input: this tab refused trusted input, so the page saw script events)';
  const plain = line;
  if (result.navigated) line += ` → navigated to ${page(result.url, result.title)}; old handles are stale`;
  if (result.dialog !== undefined)
    line += `; ${result.dialog.type} dialog open: "${result.dialog.message}" (answer with dialog)`;
  for (const opened of result.openedTabs ?? [])
    line += `; opened ${opened.tab} ${opened.url} (tab_select ${opened.tab} to act in it)`;
  for (const d of result.downloads ?? []) line += `; download ${downloadLine(d)}`;
  const diff = 'diff' in result ? result.diff : undefined;
  if (line === plain && diff === undefined) return own(line);
  return { page: line + actionDiff(diff), tail: diffNotice(diff) };
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
  return `\n${DIFF_HEAD[diff.kind]}${diff.snapshot === '' ? '' : `\n${diff.snapshot}`}`;
}

/** The diff's notice (bproxy's words: no change, a part of the page). */
function diffNotice(diff: ActionDiff | undefined): string {
  return diff?.notice === undefined ? '' : `[${diff.notice}]`;
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
  return `(hidden text left out: ${blocks} ${blocks === 1 ? 'block' : 'blocks'})`;
}

function more(shown: string, truncated: boolean, total: number): string {
  return truncated ? `[${shown} of ${total}; call with a higher limit or contains= to narrow]` : '';
}

const lines = (...parts: string[]): string => parts.filter((part) => part !== '').join('\n');

/** console and network: their lines (page text), and how to get the rest when capped. */
function observed(r: ActionResult<'console'>, tool: string, none: string): ReplyParts {
  const dropped = r.dropped === undefined ? '' : `[${r.dropped} older entries were let go]`;
  const rest =
    r.nextOffset === undefined
      ? ''
      : `[${r.shown} of ${r.total} from here; call ${tool} with offset=${r.nextOffset} for more]`;
  return r.text === ''
    ? { lead: none, tail: lines(rest, dropped) }
    : { page: r.text, tail: lines(rest, dropped) };
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

/** A list read (elements, links): its items as page text, or what says there are none. */
function listed(items: string, none: string, rest: string, frameLine: string): ReplyParts {
  const page = lines(items, frameLine.slice(1));
  return items === '' && page === '' ? { lead: none, tail: rest } : { page, tail: rest };
}

/** A reply: its parts (most), or the whole reply (an image). */
type Reply = ReplyParts | ToolReply;
type Params = Record<string, unknown>;

/** A page's line (`url "title"`): page text when the page has a title. */
const atPage = (r: ActionResult<'back'>): ReplyParts =>
  r.title === '' ? own(`at ${r.url}`) : { page: `at ${page(r.url, r.title)}` };

/**
 * Each action's reply, from its checked result and the arguments it was called with. An action
 * without an entry answers its result as one line of JSON, fenced.
 */
const REPLIES: { readonly [A in ActionName]?: (result: ActionResult<A>, params: Params) => Reply } = {
  'tab.open': (r) => {
    const done = `opened ${r.tab} (current) in ${r.browser}: `;
    return r.title === '' ? own(done + r.url) : { page: done + page(r.url, r.title) };
  },
  'tab.list': (r) =>
    r.tabs.length === 0
      ? own('no tabs; call tab_open')
      : {
          page: r.tabs
            .map(
              (t) =>
                `${t.tab}${t.bound ? ' (current)' : ''}${t.pinned ? ' pinned' : ''} ${page(t.url, t.title)}`,
            )
            .join('\n'),
        },
  'session.bind': (r) => own(`current tab: ${r.tab ?? 'none'}`),
  'tab.close': (r) => own(`closed ${r.tab}`),
  navigate: (r) => {
    const opened = r.openedTab === undefined ? '' : `opened ${r.openedTab} (current); `;
    return r.title === '' ? own(`${opened}at ${r.url}`) : { page: `${opened}at ${page(r.url, r.title)}` };
  },
  back: atPage,
  forward: atPage,
  reload: atPage,
  snapshot: (r) => {
    const notice = r.notice === undefined ? '' : `[${r.notice}]`;
    const kind = r.diff === undefined ? '' : ` ${DIFF_HEAD[r.diff]}`;
    const body = r.snapshot === '' ? '' : `\n${r.snapshot}`;
    return {
      page: `${page(r.url, r.title)}${kind}${body}${frames(r.crossOriginFrames)}`,
      tail: lines(notice, hidden(r.hiddenBlocks)),
    };
  },
  text: (r, params) => {
    const start = typeof params.offset === 'number' ? params.offset : 0;
    const notice =
      r.nextOffset === undefined
        ? ''
        : `[chars ${start}-${r.nextOffset} of ${r.totalChars}; call text with offset=${r.nextOffset} for more]`;
    return { page: `${r.text}${frames(r.crossOriginFrames)}`, tail: lines(notice, hidden(r.hiddenBlocks)) };
  },
  elements: (r) =>
    listed(
      inFrames(r.elements, elementLine),
      'no actionable elements',
      more(`${r.elements.length}`, r.truncated, r.total),
      frames(r.crossOriginFrames),
    ),
  links: (r) =>
    listed(
      inFrames(r.links, (l) => `${l.handle} "${l.text}" → ${l.href}`),
      'no links',
      more(`${r.links.length}`, r.truncated, r.total),
      frames(r.crossOriginFrames),
    ),
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
  select: (r, params) => {
    const done = effects(
      `selected ${r.selected.map((s) => `"${s}"`).join(', ')} in ${targetName(params.target)}`,
      r,
    );
    // The options' texts are the page's.
    return done.lead === undefined ? done : { page: done.lead };
  },
  scroll: (r) => {
    const edge = r.atBottom ? ' (at bottom)' : r.atTop ? ' (at top)' : '';
    return own(`scrolled to x=${Math.round(r.x)} y=${Math.round(r.y)}${edge}`);
  },
  wait: (r) => {
    const done = `done after ${Math.round(r.waitedMs)} ms`;
    const download = r.download === undefined ? '' : `download ${downloadLine(r.download)}`;
    if (r.title === '' && r.consoleError === undefined && download === '') return own(`${done}; at ${r.url}`);
    return { lead: done, page: lines(`at ${page(r.url, r.title)}`, r.consoleError ?? '', download) };
  },
  // A download's name and URL are the page's to choose.
  downloads: (r) =>
    r.downloads.length === 0 ? own('no downloads') : { page: r.downloads.map(downloadLine).join('\n') },
  console: (r) => observed(r, 'console', 'no console messages'),
  network: (r) => observed(r, 'network', 'no requests'),
  screenshot: (r) => ({
    content: [
      { type: 'image', data: r.data, mimeType: r.mimeType },
      ...(r.annotations === undefined
        ? []
        : [
            {
              type: 'text' as const,
              text:
                r.annotations.length === 0
                  ? labelList(r.annotations)
                  : fenceUntrusted(labelList(r.annotations)),
            },
          ]),
    ],
  }),
  dialog: (r) => ({ page: `${r.accepted ? 'accepted' : 'dismissed'} ${r.type} "${r.message}"` }),
  'session.resume': () => own('resumed; read the page again (snapshot) before acting'),
};

/** The parts of a result's reply, or the whole reply (an image). */
function render(tool: ToolName, params: Params, data: unknown): Reply {
  const action = TOOLS_BY_NAME.get(tool)?.action;
  // Each entry reads its own action's result; `data` was checked against that action's schema.
  const replies: { readonly [A in ActionName]?: (result: never, params: Params) => Reply } = REPLIES;
  const entry = action === undefined ? undefined : replies[action];
  return entry === undefined ? { page: JSON.stringify(data) } : entry(data as never, params);
}

/** The session's notes (news of the action: console errors, tabs opened): page text. */
function notesOf(data: unknown): string {
  const notes = (data as { notes?: unknown }).notes;
  if (!Array.isArray(notes) || notes.length === 0) return '';
  return notes.map((note) => `Note: ${String(note)}`).join('\n');
}

/** One text of parts: the lead, the page text in its fence, the tail. */
export function joinParts(parts: ReplyParts): string {
  return lines(parts.lead ?? '', fenceUntrusted(parts.page ?? ''), parts.tail ?? '');
}

function isParts(reply: Reply): reply is ReplyParts {
  return !('content' in reply);
}

/**
 * The parts of `data`'s reply (already checked against the action's result schema) with the notes in
 * its page part, or the whole reply with the notes (fenced) as a text block of its own (an image).
 */
export function replyParts(tool: ToolName, params: Params, data: unknown): Reply {
  const reply = render(tool, params, data);
  const notes = notesOf(data);
  if (notes === '') return reply;
  if (isParts(reply)) return { ...reply, page: lines(reply.page ?? '', notes) };
  return { ...reply, content: [...reply.content, { type: 'text', text: fenceUntrusted(notes) }] };
}

/** Renders `data` (already checked against the action's result schema) for the tool that asked. */
export function successReply(tool: ToolName, params: Params, data: unknown): ToolReply {
  const reply = replyParts(tool, params, data);
  return isParts(reply) ? textReply(joinParts(reply)) : reply;
}
