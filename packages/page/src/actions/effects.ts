/** The effects answer of interaction actions; drivers fill in `navigated` and `dialog`. */
export interface Effects {
  url: string;
  title: string;
  navigated: false;
}

export function effects(): Effects {
  return { url: location.href, title: document.title, navigated: false };
}
