/**
 * The effects answer of interaction actions. `navigated` is set by the dispatcher (whether the action
 * asked the page to navigate); drivers confirm it against the browser and add `dialog`.
 */
export interface Effects {
  url: string;
  title: string;
  navigated: boolean;
}

export function effects(): Effects {
  return { url: location.href, title: document.title, navigated: false };
}
