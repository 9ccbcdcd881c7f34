/**
 * The task replay of `npm run bench:peers`: scripted tasks on the corpus's shop pages (add to the
 * basket and check the count, fill and send a form, filter a list and act on what is left), each a
 * sequence of real steps — navigate, read, act, read again, act — run through one server in one read
 * mode. The bytes counted are every reply the agent reads: navigations, actions and reads. Handles
 * are taken the way an agent takes them, from what it has read: a mode keeps the agent's picture of
 * the page (the last whole read with every change applied), and each step acts on the handle found
 * on the picture's matching line. Whether that handle was in what the agent read, whether the result
 * of the task showed in its reads, and whether the page really got there (read back afterwards,
 * uncounted) are all reported.
 */
import { readFileSync } from 'node:fs';
import type { ToolCall } from './peers-servers';

const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, arguments: args });

/** One step of a task. */
export interface TaskStep {
  readonly label: string;
  readonly kind: 'navigate' | 'click' | 'fill';
  /** click/fill: the line of the element in the agent's picture of the page, and which match (0: the first). */
  readonly target?: { readonly line: RegExp; readonly nth?: number };
  readonly value?: string;
  /** The agent reads the page after this step (the first read after a navigation is a whole one). */
  readonly read: boolean;
  /** What the agent should see in this step's reads when the step worked. */
  readonly shows?: RegExp;
}

export interface Task {
  readonly name: string;
  readonly page: string;
  readonly steps: readonly TaskStep[];
  /** Reads the page's state back after the task (not counted): a selector and the text it must hold. */
  readonly check: { readonly selector: string; readonly expect: RegExp };
}

/** The first product of the listing priced at most `max` pounds: the one the filter task adds. */
function firstProductUpTo(listingHtml: string, max: number): string {
  const card =
    /<h2[^>]*id="p\d+"><a [^>]*>([^<]+)<\/a><\/h2>\s*<p class="price">(?:<del>[^<]*<\/del> )?<strong>£([\d.]+)<\/strong>/g;
  for (const m of listingHtml.matchAll(card)) if (Number(m[2]) <= max) return m[1] ?? '';
  throw new Error(`no product at most £${max} on the listing`);
}

const ADD = /button "Add to basket"/;

export function benchTasks(listingFile: string): Task[] {
  const cheap = firstProductUpTo(readFileSync(listingFile, 'utf8'), 100).replace(/&amp;/g, '&');
  return [
    {
      name: 'basket: add two products, check the count',
      page: 'shop-listing.html',
      steps: [
        { label: 'open the listing, read it', kind: 'navigate', read: true },
        {
          label: 'add the first product',
          kind: 'click',
          target: { line: ADD },
          read: true,
          shows: /Basket 1/,
        },
        {
          label: 'add the third product',
          kind: 'click',
          target: { line: ADD, nth: 2 },
          read: true,
          shows: /Basket 2/,
        },
      ],
      check: { selector: '.cart .badge', expect: /^2$/ },
    },
    {
      name: 'form: ask a question on a product page',
      page: 'shop-product.html',
      steps: [
        { label: 'open the product, read it', kind: 'navigate', read: true },
        {
          label: 'fill the name',
          kind: 'fill',
          target: { line: /textbox "Name"/ },
          value: 'Ada Byron',
          read: false,
        },
        {
          label: 'fill the email',
          kind: 'fill',
          target: { line: /textbox "Email"/ },
          value: 'ada@example.org',
          read: false,
        },
        {
          label: 'fill the question',
          kind: 'fill',
          target: { line: /textbox "Your question"/ },
          value: 'Does it run small?',
          read: false,
        },
        { label: 'tick the consent box', kind: 'click', target: { line: /checkbox "I agree/ }, read: false },
        {
          label: 'send, read the answer',
          kind: 'click',
          target: { line: /button "Send question"/ },
          read: true,
          shows: /Thanks, Ada Byron: question sent/,
        },
      ],
      check: { selector: '.question [role=status]', expect: /^Thanks, Ada Byron: question sent\.$/ },
    },
    {
      name: 'filter: price up to £100, add the first product left',
      page: 'shop-listing.html',
      steps: [
        { label: 'open the listing, read it', kind: 'navigate', read: true },
        {
          label: 'set the highest price',
          kind: 'fill',
          target: { line: /"to £"/ },
          value: '100',
          read: false,
        },
        {
          label: 'apply the filter, read the list',
          kind: 'click',
          target: { line: /button "Apply filters"/ },
          read: true,
          shows: /Showing \d+ products from £0 to £100/,
        },
        {
          label: 'add the first product left',
          kind: 'click',
          target: { line: ADD },
          read: true,
          shows: /Basket 1/,
        },
      ],
      check: {
        selector: '.toolbar [role=status]',
        expect: new RegExp(`^Added ${escape(cheap)} to your basket$`),
      },
    },
  ];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * One way of reading the page through one server: how it reads after a navigation and after an
 * action, how an action is asked, and how a reply changes the agent's picture of the page.
 */
export interface TaskMode {
  readonly server: string;
  readonly mode: string;
  /** Whether this is a diff mode (reads only what changed). */
  readonly diff: boolean;
  navigate(url: string): ToolCall;
  /** The first read after a navigation. */
  firstRead(): ToolCall;
  /** The read after an action; undefined when the action's own reply carries it (bproxy `diff: true`). */
  readAfter(): ToolCall | undefined;
  act(kind: 'click' | 'fill', ref: string, value: string | undefined, read: boolean): ToolCall;
  /** The picture after a read reply (the whole page, or the previous picture with the changes applied). */
  apply(picture: readonly string[], reply: string): string[];
  /** The call that reads the next part of a read that continues (undefined: it was whole, or the mode reads one part). */
  nextPart?(reply: string): ToolCall | undefined;
  /** The handle on a line of the picture. */
  refOn(line: string): string | undefined;
  /** Reads the text of a selector (the uncounted check). */
  textOf(selector: string): ToolCall;
}

const BPROXY_HANDLE = /\[((?:el|ln)\d+)\]/;

/** bproxy: a snapshot reply is its page line, maybe a diff head, then the outline or the changed lines. */
function bproxyApply(picture: readonly string[], reply: string): string[] {
  const lines = reply.split('\n');
  const head = lines.findIndex((l) => l === '(changes)' || l.startsWith('(whole:'));
  if (head < 0) return lines.slice(1); // a whole snapshot without diff: the page line, then the outline
  const body = lines.slice(head + 1).filter((l) => !l.startsWith('['));
  if (lines[head] !== '(changes)') return body;
  const next = [...picture];
  for (const line of body) {
    const op = line.slice(0, 2);
    const text = line.slice(2);
    // A run of removed lines named by its handles: each of those lines goes.
    const gone = op === '- ' ? /^\d+ lines gone: (.*)$/.exec(text)?.[1] : undefined;
    if (gone !== undefined) {
      const dead = new Set(gone.split(' '));
      const kept = next.filter(
        (l) => ![...l.matchAll(/\[((?:el|ln)\d+)\]/g)].some((m) => dead.has(m[1] ?? '')),
      );
      next.splice(0, next.length, ...kept);
      continue;
    }
    const handle = BPROXY_HANDLE.exec(text)?.[1];
    const at =
      handle === undefined
        ? next.findIndex((l) => l.trim() === text.trim())
        : next.findIndex((l) => BPROXY_HANDLE.exec(l)?.[1] === handle);
    if (op === '- ') {
      if (at >= 0) next.splice(at, 1);
    } else if (op === '~ ' && at >= 0) next[at] = text;
    else if (op === '+ ' || op === '~ ') next.push(text);
  }
  return next;
}

/** The bproxy mode the replay's target is measured on: diffs after a first read of every part of the page. */
export const BPROXY_TARGET_MODE = '--diff, every part read first';

/** The offset a bproxy read continues at ("repeat with offset=N"), when it continues. */
function continuation(reply: string): number | undefined {
  const m = /For the next part repeat with offset=(\d+)\./.exec(reply);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

export function bproxyModes(): TaskMode[] {
  const base = {
    server: 'bproxy',
    navigate: (url: string) => call('navigate', { url }),
    refOn: (line: string) => BPROXY_HANDLE.exec(line)?.[1],
    apply: bproxyApply,
    textOf: (selector: string) => call('text', { target: { selector } }),
  };
  // A read stops at 12 000 characters by default, and at 200 handles (the most one read mints) in
  // any case, ending with how to continue. "Every part": `maxChars: 1000000` and the continuation
  // read until the page is whole, as the peers' snapshots are whole. An action's diff compares within
  // the scope of the latest whole-page diff read (its first part).
  const whole = { maxChars: 1_000_000 };
  const more = (read: Record<string, unknown>) => (reply: string) => {
    const offset = continuation(reply);
    return offset === undefined ? undefined : call('snapshot', { ...read, offset });
  };
  const act: TaskMode['act'] = (kind, ref, value) =>
    call(kind, value === undefined ? { target: ref } : { target: ref, value });
  const actDiff: TaskMode['act'] = (kind, ref, value, readAfter) =>
    call(kind, {
      target: ref,
      ...(value === undefined ? {} : { value }),
      ...(readAfter ? { diff: true } : {}),
    });
  return [
    {
      ...base,
      mode: 'whole snapshots, every part',
      diff: false,
      firstRead: () => call('snapshot', whole),
      readAfter: () => call('snapshot', whole),
      nextPart: more(whole),
      act,
    },
    {
      ...base,
      mode: BPROXY_TARGET_MODE,
      diff: true,
      firstRead: () => call('snapshot', { ...whole, diff: true }),
      readAfter: () => undefined,
      nextPart: more({ ...whole, diff: true }),
      act: actDiff,
    },
    {
      ...base,
      mode: 'snapshots, first part (default read)',
      diff: false,
      firstRead: () => call('snapshot'),
      readAfter: () => call('snapshot'),
      act,
    },
    {
      ...base,
      mode: '--diff, first part (default read)',
      diff: true,
      firstRead: () => call('snapshot', { diff: true }),
      readAfter: () => undefined,
      act: actDiff,
    },
  ];
}

const AB_REF = /\[(?:[^\]]*, )?ref=(e\d+)\]/;

interface AbDelta {
  data?: {
    snapshot?: {
      kind?: string;
      tree?: string;
      treeChange?: { startLine: number; deleteCount: number; lines: string[] };
    };
  };
}

/** agent-browser: a plain snapshot is the tree; a delta snapshot is JSON with a full tree or a splice. */
function agentBrowserApply(picture: readonly string[], reply: string): string[] {
  if (!reply.startsWith('{')) return reply.split('\n');
  const snapshot = (JSON.parse(reply) as AbDelta).data?.snapshot;
  if (snapshot?.kind === 'full' && typeof snapshot.tree === 'string') return snapshot.tree.split('\n');
  const change = snapshot?.treeChange;
  if (snapshot?.kind !== 'delta' || change === undefined) return [...picture];
  const next = [...picture];
  next.splice(change.startLine, change.deleteCount, ...change.lines);
  return next;
}

export function agentBrowserModes(): TaskMode[] {
  const modes: { mode: string; args: Record<string, unknown>; diff: boolean }[] = [
    { mode: 'snapshots (its default: interactive)', args: {}, diff: false },
    { mode: 'delta snapshots', args: { delta: true }, diff: true },
    { mode: 'snapshots with text (interactive: false)', args: { interactive: false }, diff: false },
    { mode: 'delta snapshots with text', args: { interactive: false, delta: true }, diff: true },
  ];
  return modes.map(({ mode, args, diff }): TaskMode => ({
    server: 'agent-browser',
    mode,
    diff,
    navigate: (url: string) => call('agent_browser_open', { url }),
    firstRead: () => call('agent_browser_snapshot', args),
    readAfter: () => call('agent_browser_snapshot', args),
    act: (kind, ref, value) =>
      kind === 'fill'
        ? call('agent_browser_fill', { selector: `@${ref}`, text: value ?? '' })
        : call('agent_browser_click', { selector: `@${ref}` }),
    apply: agentBrowserApply,
    refOn: (line: string) => AB_REF.exec(line)?.[1],
    textOf: (selector: string) => call('agent_browser_get_text', { selector }),
  }));
}

export interface StepResult {
  label: string;
  bytes: number;
  /** The handle acted on, and whether it was in what the agent had read in this task. */
  handle?: string;
  handleRead?: boolean;
  /** The step's expected result showed in its reads (undefined: it expects nothing). */
  shown?: boolean;
  error?: string;
}

export interface TaskResult {
  task: string;
  server: string;
  mode: string;
  diff: boolean;
  steps: StepResult[];
  bytes: number;
  /** Every handle acted on was in what the agent had read. */
  addressable: boolean;
  /** Every expected result showed in the agent's reads. */
  shown: boolean;
  /** The page really got there (read back afterwards, not counted). */
  done: boolean;
  note: string;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export type Run = (c: ToolCall) => Promise<{ text: string; isError: boolean }>;

/** Runs one task in one mode; `url` is the page's address (made unique per run by the caller). */
export async function replayTask(run: Run, mode: TaskMode, task: Task, url: string): Promise<TaskResult> {
  const result: TaskResult = {
    task: task.name,
    server: mode.server,
    mode: mode.mode,
    diff: mode.diff,
    steps: [],
    bytes: 0,
    addressable: true,
    shown: true,
    done: false,
    note: '',
  };
  let picture: string[] = [];
  let read = '';
  const bytes = (text: string) => Buffer.byteLength(text);
  /** A read, and its further parts when the mode reads every part: the whole page for the picture. */
  const readParts = async (
    first: ToolCall,
    before: readonly string[] = [],
  ): Promise<{ text: string; bytes: number; picture: string[] }> => {
    let reply = await run(first);
    if (reply.isError) throw new Error(`read: ${reply.text.slice(0, 120)}`);
    const texts = [reply.text];
    let pic = mode.apply(before, reply.text);
    for (
      let next = mode.nextPart?.(reply.text), parts = 1;
      next !== undefined && parts < 20;
      next = mode.nextPart?.(reply.text), parts++
    ) {
      reply = await run(next);
      if (reply.isError) throw new Error(`read: ${reply.text.slice(0, 120)}`);
      texts.push(reply.text);
      pic = [...pic, ...mode.apply([], reply.text)];
    }
    return { text: texts.join('\n'), bytes: sum(texts.map(bytes)), picture: pic };
  };
  try {
    for (const step of task.steps) {
      const out: StepResult = { label: step.label, bytes: 0 };
      result.steps.push(out);
      let seen = '';
      if (step.kind === 'navigate') {
        const nav = await run(mode.navigate(url));
        out.bytes += bytes(nav.text);
        read += `\n${nav.text}`;
        if (nav.isError) throw new Error(`navigate: ${nav.text.slice(0, 120)}`);
        const first = await readParts(mode.firstRead());
        out.bytes += first.bytes;
        picture = first.picture;
        seen = first.text;
      } else {
        const target = step.target;
        if (target === undefined) throw new Error(`${step.label}: no target`);
        const ref = picture
          .filter((l) => target.line.test(l) && mode.refOn(l) !== undefined)
          .map((l) => mode.refOn(l))[target.nth ?? 0];
        if (ref === undefined)
          throw new Error(`${step.label}: no handle on a line like ${String(target.line)}`);
        out.handle = ref;
        out.handleRead = new RegExp(`\\b${ref}\\b`).test(read);
        if (!out.handleRead) result.addressable = false;
        const acted = await run(mode.act(step.kind, ref, step.value, step.read));
        out.bytes += bytes(acted.text);
        seen = acted.text;
        if (acted.isError)
          throw new Error(`${step.label}: ${acted.text.split('\n')[0]?.slice(0, 160) ?? ''}`);
        if (step.read) {
          const after = mode.readAfter();
          if (after === undefined) picture = mode.apply(picture, acted.text);
          else {
            const r = await readParts(after, picture);
            out.bytes += r.bytes;
            seen += `\n${r.text}`;
            picture = r.picture;
          }
        }
      }
      read += `\n${seen}`;
      result.bytes += out.bytes;
      if (step.shows !== undefined) {
        out.shown = step.shows.test(seen);
        if (!out.shown) result.shown = false;
      }
    }
    const check = await run(mode.textOf(task.check.selector));
    // bproxy fences page text as untrusted data: the check reads what is inside the fence.
    const held = check.text
      .split('\n')
      .filter((line) => !/^<<(end )?untrusted-data [0-9a-f]+>>$/.test(line))
      .join('\n');
    result.done = !check.isError && task.check.expect.test(held.trim());
    if (!result.done) result.note = `the page holds ${JSON.stringify(held.trim().slice(0, 80))}`;
  } catch (error) {
    const last = result.steps.at(-1);
    const message = String(error instanceof Error ? error.message : error).slice(0, 200);
    if (last) last.error = message;
    result.note = message;
    result.addressable = result.steps.every((s) => s.handleRead !== false);
  }
  return result;
}
