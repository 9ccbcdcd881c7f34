/**
 * Successful results as short text for a language model, one renderer per tool of the catalogue. An
 * action says what changed (a navigation, a dialog, a tab its page opened, input the page could tell
 * from a person's) in one line instead of dumping the page; reads keep their handles next to what they
 * name; capped reads end with how to get the rest; the session's notes (the session went back to
 * another tab, a tab opened meanwhile) follow on their own lines. Screenshots are image blocks.
 */
import type { ActionResult } from '@bproxy/protocol';
import type { ToolName } from './catalogue';
import { textReply, type ToolReply } from './errors';

type Effects = ActionResult<'click'> | ActionResult<'fill'>;

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
  return line;
}

function targetName(target: unknown): string {
  if (typeof target === 'string') return target;
  if (typeof target === 'object' && target !== null && 'selector' in target)
    return `"${String((target as { selector: unknown }).selector)}"`;
  return '';
}

function frames(list: { src: string }[] | undefined): string {
  if (list === undefined || list.length === 0) return '';
  return `\nCross-origin frames not read: ${list.map((f) => f.src).join(', ')}`;
}

/** One short line when a read left out text a person could not see. */
function hidden(blocks: number | undefined): string {
  if (blocks === undefined) return '';
  return `\n(hidden text left out: ${blocks} ${blocks === 1 ? 'block' : 'blocks'})`;
}

function more(shown: string, truncated: boolean, total: number): string {
  return truncated ? `\n[${shown} of ${total}; call with a higher limit or contains= to narrow]` : '';
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

/** Renders `data` (already checked against the action's result schema) for the tool that asked. */
export function successReply(tool: ToolName, params: Record<string, unknown>, data: unknown): ToolReply {
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

function render(tool: ToolName, params: Record<string, unknown>, data: unknown): ToolReply {
  switch (tool) {
    case 'tab_open': {
      const r = data as ActionResult<'tab.open'>;
      return textReply(`opened ${r.tab} (current) in ${r.browser}: ${page(r.url, r.title)}`);
    }
    case 'tab_list': {
      const r = data as ActionResult<'tab.list'>;
      if (r.tabs.length === 0) return textReply('no tabs; call tab_open');
      return textReply(
        r.tabs
          .map(
            (t) =>
              `${t.tab}${t.bound ? ' (current)' : ''}${t.pinned ? ' pinned' : ''} ${page(t.url, t.title)}`,
          )
          .join('\n'),
      );
    }
    case 'tab_select': {
      const r = data as ActionResult<'session.bind'>;
      return textReply(`current tab: ${r.tab ?? 'none'}`);
    }
    case 'tab_close': {
      const r = data as ActionResult<'tab.close'>;
      return textReply(`closed ${r.tab}`);
    }
    case 'navigate': {
      const r = data as ActionResult<'navigate'>;
      const opened = r.openedTab === undefined ? '' : `opened ${r.openedTab} (current); `;
      return textReply(`${opened}at ${page(r.url, r.title)}`);
    }
    case 'back':
    case 'forward':
    case 'reload': {
      const r = data as ActionResult<'back'>;
      return textReply(`at ${page(r.url, r.title)}`);
    }
    case 'snapshot': {
      const r = data as ActionResult<'snapshot'>;
      const notice = r.notice === undefined ? '' : `\n[${r.notice}]`;
      return textReply(
        `${page(r.url, r.title)}\n${r.snapshot}${notice}${hidden(r.hiddenBlocks)}${frames(r.crossOriginFrames)}`,
      );
    }
    case 'text': {
      const r = data as ActionResult<'text'>;
      const start = typeof params.offset === 'number' ? params.offset : 0;
      const notice =
        r.nextOffset === undefined
          ? ''
          : `\n[chars ${start}-${r.nextOffset} of ${r.totalChars}; call text with offset=${r.nextOffset} for more]`;
      return textReply(`${r.text}${notice}${hidden(r.hiddenBlocks)}${frames(r.crossOriginFrames)}`);
    }
    case 'elements': {
      const r = data as ActionResult<'elements'>;
      const lines = r.elements.map(elementLine);
      return textReply(
        `${lines.join('\n') || 'no actionable elements'}${more(`${r.elements.length}`, r.truncated, r.total)}${frames(r.crossOriginFrames)}`,
      );
    }
    case 'links': {
      const r = data as ActionResult<'links'>;
      const lines = r.links.map((l) => `${l.handle} "${l.text}" → ${l.href}`);
      return textReply(
        `${lines.join('\n') || 'no links'}${more(`${r.links.length}`, r.truncated, r.total)}${frames(r.crossOriginFrames)}`,
      );
    }
    case 'inspect':
      return textReply(JSON.stringify(data));
    case 'click':
    case 'hover':
    case 'fill':
    case 'type':
    case 'press': {
      const verb = {
        click: 'clicked',
        hover: 'hovered',
        fill: 'filled',
        type: 'typed into',
        press: 'pressed',
      }[tool];
      const what =
        tool === 'press'
          ? String(params.key)
          : tool === 'type'
            ? targetName(params.target) || 'the focus'
            : targetName(params.target);
      return textReply(effects(`${verb} ${what}`, data as Effects));
    }
    case 'select': {
      const r = data as ActionResult<'select'>;
      return textReply(
        effects(`selected ${r.selected.map((s) => `"${s}"`).join(', ')} in ${targetName(params.target)}`, r),
      );
    }
    case 'scroll': {
      const r = data as ActionResult<'scroll'>;
      const edge = r.atBottom ? ' (at bottom)' : r.atTop ? ' (at top)' : '';
      return textReply(`scrolled to x=${Math.round(r.x)} y=${Math.round(r.y)}${edge}`);
    }
    case 'wait': {
      const r = data as ActionResult<'wait'>;
      return textReply(`done after ${Math.round(r.waitedMs)} ms; at ${page(r.url, r.title)}`);
    }
    case 'screenshot': {
      const r = data as ActionResult<'screenshot'>;
      return { content: [{ type: 'image', data: r.data, mimeType: r.mimeType }] };
    }
    case 'dialog': {
      const r = data as ActionResult<'dialog'>;
      return textReply(`${r.accepted ? 'accepted' : 'dismissed'} ${r.type} "${r.message}"`);
    }
    case 'session_resume':
      return textReply('resumed; read the page again (snapshot) before acting');
    case 'debug_last':
    case 'debug_log':
      return textReply(JSON.stringify(data));
  }
}
