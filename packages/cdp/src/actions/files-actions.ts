/**
 * The files group in the CDP driver: upload answers the file chooser a trusted click opens (the driver
 * kit's uploadThroughChooser), inside the effects watch, so a page that submits on change is followed.
 */
import {
  acceptAttribute,
  clickTarget,
  printToPdfParams,
  uploadThroughChooser,
  type ChooserPage,
  type FileChooserOpened,
} from '@bproxy/driver';
import { withEffects } from '../driver/effects';
import type { PageTab } from '../driver/page-tab';
import type { HandlerDef } from './context';
import { trustedPage } from './trusted-page';

function chooserPage(tab: PageTab, remaining: () => number): ChooserPage {
  const s = tab.session;
  return {
    interceptChooser: async (enabled) => {
      await s.send('Page.setInterceptFileChooserDialog', { enabled }, remaining());
    },
    nextChooser() {
      let off = (): void => undefined;
      const opened = new Promise<FileChooserOpened>((resolve) => {
        off = s.on('Page.fileChooserOpened', (event) => {
          off();
          resolve(event);
        });
      });
      return { opened, cancel: () => off() };
    },
    acceptOf: async (backendNodeId) =>
      acceptAttribute((await s.send('DOM.describeNode', { backendNodeId }, remaining())).node.attributes),
    setFiles: async (backendNodeId, paths) => {
      await s.send('DOM.setFileInputFiles', { files: [...paths], backendNodeId }, remaining());
    },
  };
}

export const upload: HandlerDef<'upload'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const steps = clickTarget(trustedPage(tab, ctx.remaining), params.target);
    await steps.prepare();
    const work = () =>
      uploadThroughChooser(chooserPage(tab, ctx.remaining), () => steps.act(), params.files, ctx.remaining);
    return (await withEffects(tab, work, ctx.remaining())).effects;
  },
};

export const pdf: HandlerDef<'pdf'> = {
  async run(ctx, params) {
    const printed = await ctx
      .tab()
      .session.send('Page.printToPDF', printToPdfParams(params), ctx.remaining());
    return { data: printed.data };
  },
};
