/**
 * The files group in the extension: upload through chrome.debugger, where setting a file input's files
 * outright is refused to an extension but answering a file chooser the page opened is not. The driver
 * kit's uploadThroughChooser intercepts the tab's chooser, clicks the element with trusted input and
 * answers the chooser with the paths the daemon checked; the action's effects (a navigation, a dialog,
 * a tab opened) are watched as for a click.
 */
import {
  acceptAttribute,
  clickTarget,
  printToPdfParams,
  uploadThroughChooser,
  type ChooserPage,
  type FileChooserOpened,
} from '@bproxy/driver';
import type { ForwardedParams } from '@bproxy/protocol';
import { type ActionCall, type ActionHandler, type DriverContext, tabIdOf } from './context';
import { fail } from './errors';
import { assertNoDialog } from './tab-state';
import { DebuggerPage, act } from './trusted-actions';

function chooserPage(ctx: DriverContext, tabId: number): ChooserPage {
  const send = (method: string, params: Record<string, unknown>) =>
    ctx.chrome.debugger.sendCommand({ tabId }, method, params);
  return {
    interceptChooser: async (enabled) => {
      await send('Page.setInterceptFileChooserDialog', { enabled });
    },
    nextChooser() {
      let off = (): void => undefined;
      const opened = new Promise<FileChooserOpened>((resolve) => {
        const listener = (source: { tabId?: number }, method: string, params?: unknown) => {
          if (source.tabId !== tabId || method !== 'Page.fileChooserOpened') return;
          off();
          const event = params as { mode?: unknown; backendNodeId?: unknown } | undefined;
          resolve({
            mode: event?.mode === 'selectMultiple' ? 'selectMultiple' : 'selectSingle',
            ...(typeof event?.backendNodeId === 'number' ? { backendNodeId: event.backendNodeId } : {}),
          });
        };
        ctx.chrome.debugger.onEvent.addListener(listener);
        off = () => ctx.chrome.debugger.onEvent.removeListener(listener);
      });
      return { opened, cancel: () => off() };
    },
    acceptOf: async (backendNodeId) => {
      const described = (await send('DOM.describeNode', { backendNodeId })) as {
        node?: { attributes?: string[] };
      };
      return acceptAttribute(described.node?.attributes);
    },
    setFiles: async (backendNodeId, paths) => {
      await send('DOM.setFileInputFiles', { files: [...paths], backendNodeId });
    },
  };
}

async function upload(ctx: DriverContext, params: ForwardedParams<'upload'>, call: ActionCall) {
  const tabId = tabIdOf(call);
  const attached = await ctx.dialogs.attach(tabId);
  // Files reach a page only through the debugger: there is no synthetic stand-in for them.
  if (!attached.ok) fail('DEBUGGER_DISABLED', `upload needs the debugger in this tab: ${attached.reason}`);
  await assertNoDialog(ctx, tabId, call.action);
  const page = new DebuggerPage(ctx, call, tabId);
  const clicking = clickTarget(page, params.target);
  await clicking.prepare();
  const remaining = () => Math.max(1, call.deadline - ctx.now());
  return act(ctx, call, tabId, page, {
    prepare: () => Promise.resolve(),
    act: () => uploadThroughChooser(chooserPage(ctx, tabId), () => clicking.act(), params.files, remaining),
  });
}

/** The page as PDF through chrome.debugger's Page.printToPDF: the tab is not moved or shown. */
async function pdf(ctx: DriverContext, params: ForwardedParams<'pdf'>, call: ActionCall) {
  const tabId = tabIdOf(call);
  const attached = await ctx.dialogs.attach(tabId);
  if (!attached.ok) fail('DEBUGGER_DISABLED', `pdf needs the debugger in this tab: ${attached.reason}`);
  await assertNoDialog(ctx, tabId, call.action);
  const printed = (await ctx.chrome.debugger.sendCommand(
    { tabId },
    'Page.printToPDF',
    printToPdfParams(params),
  )) as {
    data?: unknown;
  };
  if (typeof printed.data !== 'string' || printed.data === '')
    fail('DRIVER_ERROR', 'pdf: the browser answered no PDF');
  return { data: printed.data };
}

export const FILES_ACTIONS = {
  upload: { run: upload },
  pdf: { run: pdf },
} satisfies { upload: ActionHandler<'upload'>; pdf: ActionHandler<'pdf'> };
