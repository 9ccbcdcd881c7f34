/**
 * `detectHuman`: whether a person has to step in before an agent can go on — a visible CAPTCHA widget,
 * a bot-check interstitial, or a login wall (content blocked behind a sign-in). Tuned against false
 * positives: invisible reCAPTCHA badges, a login link in a header, a password field in a big page, a
 * form that sets a password (two fields, or one for a new password) do not count. Kinds a person has
 * resumed for on this document at this URL are skipped, so a resume holds until the page navigates.
 */
import type { HumanKind } from '@bproxy/protocol';
import type { DetectHumanResult } from '../api';
import type { PageContext } from '../context';
import { deepElementFromPoint } from '../dom/geometry';
import { isVisible, styleOf } from '../dom/visibility';
import type { Params } from '../params';

const CAPTCHA_FRAMES: readonly { re: RegExp; name: string }[] = [
  { re: /recaptcha/i, name: 'a reCAPTCHA challenge' },
  { re: /hcaptcha/i, name: 'an hCaptcha challenge' },
  { re: /challenges\.cloudflare\.com|turnstile/i, name: 'a Cloudflare Turnstile check' },
  { re: /arkoselabs|funcaptcha/i, name: 'an Arkose (FunCaptcha) challenge' },
];
const CAPTCHA_WIDGETS: readonly { selector: string; name: string }[] = [
  { selector: '.g-recaptcha', name: 'a reCAPTCHA widget' },
  { selector: '.h-captcha', name: 'an hCaptcha widget' },
  { selector: '.cf-turnstile, #cf-turnstile', name: 'a Cloudflare Turnstile widget' },
];
const CHALLENGE_ELEMENTS =
  '#challenge-form, #challenge-running, #challenge-stage, #cf-challenge-running, .cf-browser-verification, #px-captcha, #distil_r_captcha';
const CHALLENGE_TITLE =
  /^(just a moment|attention required|checking your browser|verify you are human|one more step|are you a robot)/i;
const CHALLENGE_TEXT =
  /checking (if the site connection is secure|your browser)|verify (that )?you are (a )?human|needs to review the security of your connection|enable javascript and cookies to continue|press (&|and) hold|unusual traffic from your (computer|network)/i;
const LOGIN_TEXT =
  /\b(sign|log) ?in to (continue|read|view|see|access|proceed)|\b(sign|log) ?in required|you (must|need to) (sign|log) ?in/i;
const SMALL_PAGE_CHARS = 1500;

function big(el: Element, minWidth: number, minHeight: number): boolean {
  const rect = el.getBoundingClientRect();
  return rect.width >= minWidth && rect.height >= minHeight;
}

function captcha(): string | null {
  for (const frame of Array.from(document.querySelectorAll('iframe'))) {
    const src = frame.getAttribute('src') ?? '';
    if (/size=invisible/.test(src) || frame.closest('.grecaptcha-badge') !== null) continue;
    const match = CAPTCHA_FRAMES.find((c) => c.re.test(src));
    if (match && isVisible(frame) && big(frame, 30, 30)) return `the page shows ${match.name}`;
  }
  for (const widget of CAPTCHA_WIDGETS) {
    for (const el of Array.from(document.querySelectorAll(widget.selector))) {
      if (el.getAttribute('data-size') === 'invisible') continue;
      if (isVisible(el) && big(el, 30, 30)) return `the page shows ${widget.name}`;
    }
  }
  return null;
}

function challenge(bodyText: string): string | null {
  if (CHALLENGE_TITLE.test(document.title.trim()))
    return `the page is a bot check ("${document.title.trim().slice(0, 80)}")`;
  const el = document.querySelector(CHALLENGE_ELEMENTS);
  if (el !== null && isVisible(el)) return 'the page is a bot-check interstitial';
  if (bodyText.length < 3000) {
    const m = CHALLENGE_TEXT.exec(bodyText);
    if (m) return `the page is a bot check ("${m[0]}")`;
  }
  return null;
}

function visiblePasswords(root: ParentNode): HTMLInputElement[] {
  return Array.from(root.querySelectorAll<HTMLInputElement>('input[type=password]')).filter((el) =>
    isVisible(el),
  );
}

/** One password field for an existing password: signing in, not choosing a password (new + confirm). */
function signInPassword(root: ParentNode): boolean {
  const passwords = visiblePasswords(root);
  return passwords.length === 1 && passwords[0]?.autocomplete !== 'new-password';
}

/** Visible text-like fields: a sign-in form has two or three, a sign-up or checkout form more. */
function visibleFields(): number {
  return Array.from(
    document.querySelectorAll(
      'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]), textarea, select',
    ),
  ).filter((el) => isVisible(el)).length;
}

/** A fixed overlay covering most of the viewport at its center. */
function overlayAtCenter(): Element | null {
  const hit = deepElementFromPoint(document, innerWidth / 2, innerHeight / 2);
  for (let node: Element | null = hit; node !== null && node !== document.body; node = node.parentElement) {
    const position = styleOf(node).position;
    if (position !== 'fixed' && position !== 'sticky') continue;
    const rect = node.getBoundingClientRect();
    if (rect.width * rect.height >= innerWidth * innerHeight * 0.4) return node;
  }
  return null;
}

function loginWall(bodyText: string): string | null {
  const overlay = overlayAtCenter();
  if (overlay !== null) {
    const text = (overlay as HTMLElement).innerText ?? '';
    if (visiblePasswords(overlay).length > 0 || LOGIN_TEXT.test(text))
      return 'a sign-in overlay covers the page';
  }
  if (bodyText.length < SMALL_PAGE_CHARS) {
    if (signInPassword(document) && visibleFields() <= 3 && document.querySelectorAll('a[href]').length < 30)
      return 'the page is a sign-in form';
    const m = LOGIN_TEXT.exec(bodyText);
    if (m) return `the page asks to sign in ("${m[0]}")`;
  }
  return null;
}

const CHECKS: readonly { kind: HumanKind; find: (bodyText: string) => string | null }[] = [
  { kind: 'captcha', find: captcha },
  { kind: 'challenge', find: challenge },
  { kind: 'login', find: loginWall },
];

/** The kinds waived by `params.waived`, if it names this document at its current URL. */
function waivedKinds(ctx: PageContext, p: Params): ReadonlySet<string> {
  const waived = p['waived'];
  if (waived === null || typeof waived !== 'object') return new Set();
  const { document: doc, url, kinds } = waived as Record<string, unknown>;
  if (doc !== ctx.documentId || url !== location.href || !Array.isArray(kinds)) return new Set();
  return new Set(kinds.filter((k): k is string => typeof k === 'string'));
}

export function detectHuman(ctx: PageContext, p: Params): DetectHumanResult {
  const waived = waivedKinds(ctx, p);
  const bodyText = document.body?.innerText ?? '';
  for (const check of CHECKS) {
    if (waived.has(check.kind)) continue;
    const reason = check.find(bodyText);
    if (reason !== null)
      return { required: true, reason, kind: check.kind, document: ctx.documentId, url: location.href };
  }
  return { required: false };
}
