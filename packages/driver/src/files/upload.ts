/**
 * upload, the same in both drivers: the file chooser is intercepted (Page.setInterceptFileChooserDialog),
 * the element is clicked with trusted input as a person would — a file input opens its own chooser, a
 * button or label the page wired to one opens that one —, and the chooser the browser reports
 * (Page.fileChooserOpened) is answered with DOM.setFileInputFiles on the input it belongs to. Answering
 * a chooser is what chrome.debugger allows an extension where setting a file input's files outright is
 * refused, so the extension and the CDP driver take one path. The page then fires input and change as
 * for a person. The input's `accept` and single/multiple mode are checked first: a refused file is not
 * set. The paths are the ones the daemon checked against the allowed folders; the page never sees them.
 */
import type { ForwardedParams } from '@bproxy/protocol';
import { fail } from '../failure';

/** How long a click may take to open the chooser before the answer is NO_FILE_CHOOSER. */
export const CHOOSER_WAIT_MS = 3_000;

/** Page.fileChooserOpened, the fields read. */
export interface FileChooserOpened {
  readonly mode: 'selectSingle' | 'selectMultiple';
  readonly backendNodeId?: number;
}

/** What the upload needs of a tab, each driver over its own CDP channel. */
export interface ChooserPage {
  interceptChooser(enabled: boolean): Promise<void>;
  /** The next chooser the tab opens; `cancel` releases the listener. */
  nextChooser(): { readonly opened: Promise<FileChooserOpened>; cancel(): void };
  /** The `accept` attribute of the input (by backend node id), '' when it has none. */
  acceptOf(backendNodeId: number): Promise<string>;
  setFiles(backendNodeId: number, paths: readonly string[]): Promise<void>;
}

export type UploadFile = ForwardedParams<'upload'>['files'][number];

/** Whether one `accept` token (`.pdf`, `image/*`, `text/plain`) takes the file. */
function tokenTakes(token: string, file: UploadFile): boolean {
  const t = token.trim().toLowerCase();
  if (t === '') return false;
  if (t.startsWith('.')) return file.name.toLowerCase().endsWith(t);
  const type = file.type.toLowerCase();
  if (t.endsWith('/*')) return type.startsWith(t.slice(0, -1));
  return type === t;
}

/** Whether an input's `accept` takes the file (an empty accept takes every file). */
export function acceptTakes(accept: string, file: UploadFile): boolean {
  const tokens = accept.split(',').filter((t) => t.trim() !== '');
  return tokens.length === 0 || tokens.some((t) => tokenTakes(t, file));
}

/** Checks the files against what the chooser's input takes; throws FILE_NOT_ACCEPTED. */
export function checkAccepted(opened: FileChooserOpened, accept: string, files: readonly UploadFile[]): void {
  if (opened.mode === 'selectSingle' && files.length > 1)
    fail('FILE_NOT_ACCEPTED', `the file input takes one file, got ${files.length}; nothing was set`);
  const refused = files.find((f) => !acceptTakes(accept, f));
  if (refused !== undefined)
    fail(
      'FILE_NOT_ACCEPTED',
      `the file input accepts "${accept.slice(0, 200)}", not ${refused.name}${refused.type === '' ? '' : ` (${refused.type})`}; nothing was set`,
    );
}

/**
 * Intercepts the chooser, runs `click` (the driver's trusted click on the element), answers the chooser
 * it opened with `files`, and stops intercepting whatever happened: the tab's own choosers open again.
 */
export async function uploadThroughChooser(
  page: ChooserPage,
  click: () => Promise<void>,
  files: readonly UploadFile[],
  remaining: () => number,
): Promise<void> {
  await page.interceptChooser(true);
  const chooser = page.nextChooser();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await click();
    const none = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.min(CHOOSER_WAIT_MS, remaining()));
    });
    const opened = await Promise.race([chooser.opened, none]);
    if (opened === null)
      fail('NO_FILE_CHOOSER', 'the element is not a file input, and clicking it opened no file chooser');
    if (opened.backendNodeId === undefined)
      fail('NO_FILE_CHOOSER', 'the page opened a file chooser with no input behind it (showOpenFilePicker)');
    checkAccepted(opened, await page.acceptOf(opened.backendNodeId), files);
    await page.setFiles(
      opened.backendNodeId,
      files.map((f) => f.path),
    );
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    chooser.cancel();
    await page.interceptChooser(false).catch(() => undefined);
  }
}

/** The `accept` attribute out of DOM.describeNode's flat [name, value, …] list. */
export function acceptAttribute(attributes: readonly string[] | undefined): string {
  const list = attributes ?? [];
  for (let i = 0; i + 1 < list.length; i += 2) if (list[i] === 'accept') return list[i + 1] ?? '';
  return '';
}
