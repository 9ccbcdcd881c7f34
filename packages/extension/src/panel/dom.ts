/** Small DOM helpers for the panel: elements looked up once, text only (never HTML from outside). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`panel.html has no #${id}`);
  return found as T;
}

/** An element with text content and classes; children appended in order. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { text?: string; className?: string; title?: string } = {},
  ...children: (Node | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.text !== undefined) node.textContent = options.text;
  if (options.className !== undefined) node.className = options.className;
  if (options.title !== undefined) node.title = options.title;
  for (const child of children) if (child) node.append(child);
  return node;
}
