import type { BproxyError, HumanKind } from '@bproxy/protocol';

/**
 * The contract between a driver and the page script. Both drivers inject the same bundle
 * (packages/page/dist/page.js, an IIFE) into the page's isolated world; it installs itself once per
 * document as `globalThis.__bproxyPage` and keeps its element registry (refs r1, r2, …) there, so
 * refs returned by one call resolve in later calls on the same document and fail on a new one.
 *
 * Params are the action's *forwarded* params (protocol `forwardedParamsSchema`), results its
 * *driver* result (`driverResultSchema`). Errors use catalogue codes (ELEMENT_NOT_FOUND,
 * ELEMENT_NOT_INTERACTABLE, ELEMENT_HANDLE_STALE for an unknown ref with no usable selector,
 * WAIT_TIMEOUT, HUMAN_REQUIRED, …).
 */
export type PageAction =
  | 'text'
  | 'links'
  | 'elements'
  | 'inspect'
  | 'snapshot'
  | 'scroll'
  | 'click'
  | 'hover'
  | 'fill'
  | 'type'
  | 'press'
  | 'select'
  | 'wait'
  /** Scroll a target into view and run the actionability checks; answers the viewport point to press. Used by drivers that dispatch trusted input. */
  | 'locate'
  /** Whether the page needs a human (CAPTCHA widget, challenge interstitial, login wall). */
  | 'detectHuman'
  /** The document's mark and title (PageInfoResult). */
  | 'pageInfo'
  /** `screenshot --annotate`: draw labels over elements (annotate.ts), and remove them. */
  | 'annotateShow'
  | 'annotateHide'
  /** Where a cross-origin frame's viewport starts in the top viewport (FrameBoxResult), scrolled into view. */
  | 'frameBox'
  /** Which frame elements hold the child frames that posted these tokens (see frames/frame-probe.ts). */
  | 'frameProbe';

export type PageResult = { ok: true; data: unknown } | { ok: false; error: BproxyError };

export interface PageApi {
  readonly version: string;
  run(action: PageAction, params: unknown): Promise<PageResult>;
  /** The ref of an element of this document (a driver that found a frame's element by other means), else null. */
  refOf(el: unknown): string | null;
}

export const PAGE_GLOBAL = '__bproxyPage';

export type { FrameSlot } from './dom/flat-tree';
export type { FrameBoxResult } from './frames/frame-box';

/**
 * Where a document stands, for a driver that sends input from outside the page (through the debugger)
 * and must tell afterwards whether that input asked for a navigation: the document (an id the page
 * script mints per document; another one means the page was replaced) and how many navigations it
 * asked for so far (Navigation API `navigate` events, form submissions nobody cancelled).
 */
export interface DocumentMark {
  document: string;
  navigations: number;
  url: string;
}

/** `locate` answer: where to press, in top-viewport CSS pixels, and the document's mark. */
export interface LocateResult extends DocumentMark {
  x: number;
  y: number;
  tag: string;
  /** Whether the element takes text (a driver may type into it after pressing). */
  editable: boolean;
  /** Whether bringing the element into view scrolled the page: points located before are stale. */
  scrolled: boolean;
}

/**
 * `detectHuman` answer. When a person is needed it says what kind of check fired, on which document
 * (an id the page script mints per document) and at which URL: a driver passes these on in the
 * HUMAN_REQUIRED error's details (protocol HumanDetection). `detectHuman` takes `{ waived?: HumanWaiver }`:
 * kinds a person already resumed for on this document at this URL are not checked again.
 */
export interface DetectHumanResult {
  required: boolean;
  reason?: string;
  kind?: HumanKind;
  document?: string;
  url?: string;
}

/** `pageInfo` answer: the document's mark and title. */
export interface PageInfoResult extends DocumentMark {
  title: string;
}

/** The page actions; `locate` also takes `{ enabled?: boolean }` (default true: a disabled element fails). */
export const PAGE_ACTIONS: readonly PageAction[] = [
  'text',
  'links',
  'elements',
  'inspect',
  'snapshot',
  'scroll',
  'click',
  'hover',
  'fill',
  'type',
  'press',
  'select',
  'wait',
  'locate',
  'detectHuman',
  'pageInfo',
  'annotateShow',
  'annotateHide',
  'frameBox',
  'frameProbe',
];
