/**
 * Approvals' recognition over a page corpus (`bench/page-snapshot.ts --approvals`): for every handle
 * the whole outline gives an agent (elements and links), the read the daemon makes before a click —
 * `inspect` with its own `approval: 'click'` — and, for every form field among them, the read before
 * Enter pressed in it (`approval: 'enter'`). What the page layer classed (submit, send, delete) is
 * listed with what a person needs to judge it: the control's name, why it was classed, its tag, role,
 * id and type.
 */
import type { Page } from 'playwright-core';
import type { PageClass } from '@bproxy/protocol';

/** One control the recognition classed. */
export interface Classed {
  /** The read: before a click on it, or before Enter pressed in it. */
  read: 'click' | 'enter';
  class: PageClass;
  name: string;
  why: string;
  /** `button#id[type]` / `div[role=button]`: enough to find it again. */
  what: string;
  /** Its other attributes (href, class, aria-label, …), cut short: the context to judge it by. */
  context: string;
}

export interface ApprovalsRow {
  /** Handles read before a click: elements (el) and links (ln). */
  elements: number;
  links: number;
  /** Form fields read before Enter. */
  fields: number;
  classed: Classed[];
  /** Reads the page refused (a ref gone stale as the page changed), by error code. */
  failed: number;
}

interface Read {
  ref: string;
  approval: 'click' | 'enter';
}

interface Answer {
  read: 'click' | 'enter';
  tag: string;
  role: string;
  type: string;
  id: string;
  attributes: Record<string, string>;
  class?: PageClass;
  name: string;
  why: string;
  failed?: string;
}

/** Input types Enter can be pressed in: every field but the button-like and the pickers. */
const NOT_FIELDS = new Set(['submit', 'button', 'image', 'reset', 'checkbox', 'radio', 'file', 'hidden']);

/** Runs `inspect` with the daemon's approval flag on each read, in the page (one evaluate per batch). */
async function inspectAll(page: Page, reads: readonly Read[]): Promise<Answer[]> {
  return page.evaluate(async (batch) => {
    interface Run {
      run: (
        a: string,
        p: unknown,
      ) => Promise<
        | {
            ok: true;
            data: {
              tag: string;
              role: string;
              attributes: Record<string, string>;
              sensitive?: { class?: PageClass; name: string; why?: string };
            };
          }
        | { ok: false; error: { code: string } }
      >;
    }
    const api = (globalThis as unknown as { __bproxyPage: Run }).__bproxyPage;
    const out: Answer[] = [];
    for (const { ref, approval } of batch) {
      const r = await api.run('inspect', { target: { ref }, approval });
      if (!r.ok) {
        out.push({
          read: approval,
          tag: '',
          role: '',
          type: '',
          id: '',
          attributes: {},
          name: '',
          why: '',
          failed: r.error.code,
        });
        continue;
      }
      const { tag, role, attributes, sensitive } = r.data;
      out.push({
        read: approval,
        tag,
        role,
        type: attributes.type ?? '',
        id: attributes.id ?? '',
        attributes,
        ...(sensitive?.class === undefined ? {} : { class: sensitive.class }),
        name: sensitive?.name ?? '',
        why: sensitive?.why ?? '',
      });
    }
    return out;
  }, reads);
}

function context(a: Answer): string {
  return Object.entries(a.attributes)
    .filter(([k]) => k !== 'id' && k !== 'type' && k !== 'role' && k !== 'style')
    .map(([k, v]) => `${k}=${JSON.stringify(v.slice(0, 60))}`)
    .join(' ')
    .slice(0, 240);
}

function what(a: Answer): string {
  return `${a.tag}${a.id === '' ? '' : `#${a.id.slice(0, 40)}`}${a.type === '' ? '' : `[type=${a.type}]`}${
    a.role === '' || a.role === a.tag ? '' : `[role=${a.role}]`
  }`;
}

/**
 * The recognition on every handle of `refs` (the whole outline's, in order): a click on each, and
 * Enter in each form field among the elements.
 */
export async function readApprovals(
  page: Page,
  refs: readonly { ref: string; kind: 'el' | 'ln' }[],
): Promise<ApprovalsRow> {
  // Refs inside cross-origin frames (r1@FRAME:r2) are the driver's to read; the page bench has none.
  const own = refs.filter((r) => !r.ref.includes('@'));
  const clicks = await inspectAll(
    page,
    own.map((r) => ({ ref: r.ref, approval: 'click' as const })),
  );
  const fieldRefs = own.filter((r, i) => {
    const a = clicks[i];
    if (a === undefined || a.failed !== undefined) return false;
    if (a.tag === 'input') return !NOT_FIELDS.has(a.type.toLowerCase());
    return a.tag === 'textarea' || a.tag === 'select';
  });
  const enters = await inspectAll(
    page,
    fieldRefs.map((r) => ({ ref: r.ref, approval: 'enter' as const })),
  );
  const answers = [...clicks, ...enters];
  return {
    elements: own.filter((r) => r.kind === 'el').length,
    links: own.filter((r) => r.kind === 'ln').length,
    fields: fieldRefs.length,
    failed: answers.filter((a) => a.failed !== undefined).length,
    classed: answers.flatMap((a) =>
      a.class === undefined
        ? []
        : [{ read: a.read, class: a.class, name: a.name, why: a.why, what: what(a), context: context(a) }],
    ),
  };
}

/** The report: every classed control (one line each), then the counts per class and read. */
export function reportApprovals(
  rows: readonly { name: string; approvals: ApprovalsRow }[],
  args: { context: boolean },
): void {
  for (const r of rows)
    for (const c of r.approvals.classed)
      console.log(
        `${r.name}: ${c.class.padEnd(6)} ${c.read.padEnd(5)} ${c.what} "${c.name.slice(0, 80)}" (${c.why.slice(0, 80)})${
          args.context ? `  ${c.context}` : ''
        }`,
      );
  const sum = (pick: (a: ApprovalsRow) => number): number =>
    rows.reduce((total, r) => total + pick(r.approvals), 0);
  const classed = rows.flatMap((r) => r.approvals.classed);
  const count = (cls: PageClass, read: 'click' | 'enter'): number =>
    classed.filter((c) => c.class === cls && c.read === read).length;
  const pages = (cls: PageClass): number =>
    rows.filter((r) => r.approvals.classed.some((c) => c.class === cls)).length;
  console.log(
    `approvals: ${sum((a) => a.elements)} elements and ${sum((a) => a.links)} links read before a click, ${sum((a) => a.fields)} form fields before Enter (${sum((a) => a.failed)} reads failed)`,
  );
  for (const cls of ['submit', 'send', 'delete'] as const)
    console.log(
      `approvals: ${cls.padEnd(6)} ${count(cls, 'click')} clicks, ${count(cls, 'enter')} Enter, on ${pages(cls)} pages`,
    );
}
