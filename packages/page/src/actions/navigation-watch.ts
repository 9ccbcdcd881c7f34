/**
 * Whether an interaction asked the page to navigate. The Navigation API's `navigate` event fires
 * synchronously for link activations, form submissions and script navigations, cross-document or not,
 * so a driver learns at once that it should wait for a load — instead of waiting a fixed grace period
 * after every click to find out. A form submission only queues its navigation (the event comes a task
 * later), so a `submit` that nobody cancelled counts too. Where the API is missing, the answer is
 * `undefined` (unknown). `countNavigations` keeps the same count for the whole document.
 */
interface NavigationLike {
  addEventListener(type: 'navigate', listener: () => void): void;
  removeEventListener(type: 'navigate', listener: () => void): void;
}

export function watchNavigation(): () => boolean | undefined {
  const api = (globalThis as { navigation?: NavigationLike }).navigation;
  if (api === undefined) return () => undefined;
  let seen = false;
  const submits: SubmitEvent[] = [];
  const listener = () => {
    seen = true;
  };
  const onSubmit = (event: Event) => submits.push(event as SubmitEvent);
  api.addEventListener('navigate', listener);
  window.addEventListener('submit', onSubmit, true);
  return () => {
    api.removeEventListener('navigate', listener);
    window.removeEventListener('submit', onSubmit, true);
    return seen || submits.some(navigatesThisPage);
  };
}

/**
 * The navigations this document asked for so far, counted the same way, for drivers that send input
 * from outside the page (trusted input through the debugger): they read the count before the input and
 * after it. Installed once per document, when the page script is.
 */
export function countNavigations(): () => number {
  const api = (globalThis as { navigation?: NavigationLike }).navigation;
  let navigates = 0;
  const submits: SubmitEvent[] = [];
  api?.addEventListener('navigate', () => {
    navigates++;
  });
  window.addEventListener('submit', (event) => submits.push(event as SubmitEvent), true);
  return () => navigates + submits.filter(navigatesThisPage).length;
}

function navigatesThisPage(event: SubmitEvent): boolean {
  if (event.defaultPrevented) return false;
  const form = event.target instanceof HTMLFormElement ? event.target : null;
  if (!form) return false;
  const submitter = event.submitter;
  const method = (submitter?.getAttribute('formmethod') ?? form.method).toLowerCase();
  const target = (submitter?.getAttribute('formtarget') ?? form.target).toLowerCase();
  return method !== 'dialog' && (target === '' || target === '_self');
}
