/**
 * screenshot: through the debugger (Page.captureScreenshot), which works for background tabs, full
 * pages and element clips; when the debugger is unavailable, by activating the tab and capturing the
 * visible area (chrome.tabs.captureVisibleTab). Width and height are read from the encoded image.
 * `maxWidth` scales the debugger's capture down (the clip's scale; the visible-area fallback cannot
 * scale and answers the image as captured). `labels` (screenshot --annotate) are drawn by the page
 * script just before the capture and removed right after it, whatever happened; the answer lists the
 * boxes drawn, in image pixels.
 */
import { clipAtMostWide, type ScreenshotClip } from '@bproxy/driver';
import { type ActionHandler, type DriverContext, tabIdOf } from './context';
import { DriverFailure, fail, fromPlatformError, messageOf } from './errors';
import { assertNoDialog, getTab } from './tab-state';

type Clip = ScreenshotClip;

interface LayoutMetrics {
  cssContentSize?: { width: number; height: number };
  cssVisualViewport?: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  /** In device pixels: its width over the CSS one is the device pixel ratio. */
  visualViewport?: { clientWidth: number };
}

interface Drawn {
  windowWidth: number;
  clientWidth: number;
  boxes: { ref: string; name: string; x: number; y: number; width: number; height: number }[];
}

/** The clip (the viewport when none) scaled so that the image is at most `maxWidth` pixels wide. */
async function scaledClip(
  ctx: DriverContext,
  tabId: number,
  clip: Clip | undefined,
  maxWidth: number,
): Promise<Clip | undefined> {
  const metrics = (await ctx.chrome.debugger.sendCommand(
    { tabId },
    'Page.getLayoutMetrics',
  )) as LayoutMetrics;
  return clipAtMostWide(metrics, clip, maxWidth);
}

/** The debugger's capture can stall on a tab the platform is not painting; then we fall back. */
const DEBUGGER_CAPTURE_MS = 5_000;

async function elementClip(ctx: DriverContext, tabId: number, target: unknown): Promise<Clip> {
  const info = (await ctx.page.run(tabId, { action: 'inspect', params: { target } })) as {
    box?: { x: number; y: number; width: number; height: number };
  };
  const box = info.box;
  if (!box || box.width <= 0 || box.height <= 0)
    fail('ELEMENT_NOT_INTERACTABLE', 'screenshot: the element has no visible box');
  const metrics = (await ctx.chrome.debugger.sendCommand(
    { tabId },
    'Page.getLayoutMetrics',
  )) as LayoutMetrics;
  const pageX = metrics.cssVisualViewport?.pageX ?? 0;
  const pageY = metrics.cssVisualViewport?.pageY ?? 0;
  return { x: box.x + pageX, y: box.y + pageY, width: box.width, height: box.height, scale: 1 };
}

async function viaDebugger(
  ctx: DriverContext,
  tabId: number,
  params: Record<string, unknown>,
  format: 'png' | 'jpeg',
  clipped: { viewport: boolean },
): Promise<string> {
  const command: Record<string, unknown> = { format };
  if (format === 'jpeg' && typeof params.quality === 'number') command.quality = params.quality;
  if (params.target !== undefined) {
    command.clip = await elementClip(ctx, tabId, params.target);
    command.captureBeyondViewport = true;
  } else if (params.fullPage === true) {
    const metrics = (await ctx.chrome.debugger.sendCommand(
      { tabId },
      'Page.getLayoutMetrics',
    )) as LayoutMetrics;
    const size = metrics.cssContentSize;
    if (size)
      command.clip = { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1 };
    command.captureBeyondViewport = true;
  }
  if (typeof params.maxWidth === 'number') {
    const current = command.clip as Clip | undefined;
    const scaled = await scaledClip(ctx, tabId, current, params.maxWidth);
    if (scaled !== undefined) command.clip = scaled;
    if (current === undefined && scaled !== undefined) clipped.viewport = true;
  }
  const capture = ctx.chrome.debugger.sendCommand({ tabId }, 'Page.captureScreenshot', command) as Promise<{
    data?: unknown;
  }>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the debugger capture did not finish')), DEBUGGER_CAPTURE_MS);
  });
  const shot = await Promise.race([capture, timeout]).finally(() => clearTimeout(timer));
  if (typeof shot.data !== 'string') throw new Error('the debugger returned no image');
  return shot.data;
}

async function viaVisibleTab(
  ctx: DriverContext,
  tabId: number,
  params: Record<string, unknown>,
  format: 'png' | 'jpeg',
): Promise<string> {
  if (params.target !== undefined || params.fullPage === true) {
    fail(
      'UNSUPPORTED_ACTION',
      'screenshot: element and full-page captures need the debugger, which this tab does not allow',
    );
  }
  try {
    const tab = await getTab(ctx, tabId, 'screenshot');
    if (!tab.active) await ctx.chrome.tabs.update(tabId, { active: true });
    const options: { format: 'png' | 'jpeg'; quality?: number } = { format };
    if (format === 'jpeg' && typeof params.quality === 'number') options.quality = params.quality;
    const dataUrl = await ctx.chrome.tabs.captureVisibleTab(tab.windowId, options);
    const comma = dataUrl.indexOf(',');
    return comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
  } catch (error) {
    // Chrome captures the visible area only for an extension holding <all_urls>, which would include
    // file:// — bproxy asks for http and https pages only.
    if (/all_urls|activeTab/i.test(messageOf(error)))
      fail(
        'UNSUPPORTED_ACTION',
        'screenshot: this tab does not allow the debugger, and capturing the visible area would need access to every URL, local files included, which bproxy does not ask for',
      );
    throw new DriverFailure(fromPlatformError(error, 'screenshot'));
  }
}

export const screenshot: ActionHandler<'screenshot'> = {
  async run(ctx, params, call) {
    const tabId = tabIdOf(call);
    await assertNoDialog(ctx, tabId, 'screenshot');
    const format = params.format === 'jpeg' ? 'jpeg' : 'png';
    const labels = params.labels;
    // Set when the capture was clipped to the layout viewport to scale it (see scaledClip).
    const clipped = { viewport: false };
    const drawn =
      labels === undefined
        ? undefined
        : ((await ctx.page.run(tabId, { action: 'annotateShow', params: { labels } })) as Drawn);
    let data: string;
    try {
      if (await ctx.dialogs.ensureAttached(tabId)) {
        try {
          data = await viaDebugger(ctx, tabId, params, format, clipped);
        } catch (error) {
          if (error instanceof DriverFailure) throw error;
          ctx.log.info('screenshot_fallback', { tabId, error: messageOf(error) });
          data = await viaVisibleTab(ctx, tabId, params, format);
        }
      } else {
        data = await viaVisibleTab(ctx, tabId, params, format);
      }
    } finally {
      if (drawn !== undefined)
        await ctx.page.run(tabId, { action: 'annotateHide', params: {} }).catch(() => undefined);
    }
    const mimeType = format === 'jpeg' ? 'image/jpeg' : 'image/png';
    const { width, height } = await ctx.imageSize(data, mimeType);
    if (drawn === undefined) return { mimeType, data, width, height };
    // A plain capture spans the window; one scaled with a clip spans the layout viewport.
    const span = clipped.viewport ? drawn.clientWidth : drawn.windowWidth;
    const k = span > 0 ? width / span : 1;
    const px = (v: number) => Math.round(v * k);
    const annotations = drawn.boxes.map((b) => ({
      ref: b.ref,
      name: b.name,
      x: px(b.x),
      y: px(b.y),
      width: px(b.width),
      height: px(b.height),
    }));
    return { mimeType, data, width, height, annotations };
  },
};
