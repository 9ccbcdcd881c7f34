/**
 * Page.captureScreenshot for the viewport, the full page (captureBeyondViewport + the layout's
 * content size) or one element (scrolled into view, clipped to its box in document coordinates).
 * `maxWidth` scales the capture down (the clip's scale) so the image is at most that wide; `labels`
 * (screenshot --annotate) are drawn by the page script just before the capture and removed right
 * after it, whatever happened, and the answer lists the boxes drawn in image pixels.
 */
import type { ElementTarget } from '@bproxy/protocol';
import { clipAtMostWide, fail, type ScreenshotClip } from '@bproxy/driver';
import { imageSize } from './image-size';
import { runPage } from './page-runner';
import type { PageTab } from './page-tab';

export interface ScreenshotParams {
  target?: ElementTarget;
  fullPage?: boolean;
  format?: 'png' | 'jpeg';
  quality?: number;
  maxWidth?: number;
  labels?: { ref: string; label: string }[];
}

export interface Screenshot {
  mimeType: 'image/png' | 'image/jpeg';
  data: string;
  width: number;
  height: number;
  annotations?: { ref: string; name: string; x: number; y: number; width: number; height: number }[];
}

interface Drawn {
  windowWidth: number;
  clientWidth: number;
  boxes: { ref: string; name: string; x: number; y: number; width: number; height: number }[];
}

export async function captureScreenshot(
  tab: PageTab,
  params: ScreenshotParams,
  timeoutMs: number,
): Promise<Screenshot> {
  if (params.labels === undefined) {
    const { clipped: _clipped, ...shot } = await capture(tab, params, timeoutMs);
    return shot;
  }
  const started = Date.now();
  const drawn = (await runPage(tab, 'annotateShow', { labels: params.labels }, { timeoutMs })) as Drawn;
  try {
    const { clipped, ...shot } = await capture(tab, params, Math.max(1, timeoutMs - (Date.now() - started)));
    // A plain capture spans the window; one scaled with a clip spans the layout viewport.
    const span = clipped ? drawn.clientWidth : drawn.windowWidth;
    return { ...shot, annotations: scaleBoxes(drawn, shot.width, span) };
  } finally {
    await runPage(tab, 'annotateHide', {}, { timeoutMs: 5_000 }).catch(() => undefined);
  }
}

/** The boxes the page drew, in viewport CSS pixels, in the image's pixels. */
function scaleBoxes(drawn: Drawn, imageWidth: number, span: number): Screenshot['annotations'] {
  const k = span > 0 ? imageWidth / span : 1;
  const px = (v: number) => Math.round(v * k);
  return drawn.boxes.map((b) => ({
    ref: b.ref,
    name: b.name,
    x: px(b.x),
    y: px(b.y),
    width: px(b.width),
    height: px(b.height),
  }));
}

type Clip = ScreenshotClip;

/** The image, and whether a viewport capture was clipped to the layout viewport (to scale it). */
async function capture(
  tab: PageTab,
  params: ScreenshotParams,
  timeoutMs: number,
): Promise<Screenshot & { clipped: boolean }> {
  const format = params.format ?? 'png';
  let clip: Clip | undefined;
  let beyondViewport = false;
  if (params.target !== undefined) {
    clip = await elementClip(tab, params.target, timeoutMs);
    beyondViewport = true;
  } else if (params.fullPage === true) {
    const metrics = await tab.session.send('Page.getLayoutMetrics', {}, timeoutMs);
    const { width, height } = metrics.cssContentSize;
    clip = { x: 0, y: 0, width: Math.ceil(width), height: Math.ceil(height), scale: 1 };
    beyondViewport = true;
  }
  const viewport = clip === undefined;
  if (params.maxWidth !== undefined) clip = await scaledClip(tab, clip, params.maxWidth, timeoutMs);
  const clipped = viewport && clip !== undefined;
  const shot = await tab.session.send(
    'Page.captureScreenshot',
    {
      format,
      ...(format === 'jpeg' && params.quality !== undefined ? { quality: params.quality } : {}),
      ...(clip === undefined ? {} : { clip }),
      ...(beyondViewport ? { captureBeyondViewport: true } : {}),
    },
    timeoutMs,
  );
  const size = imageSize(Buffer.from(shot.data, 'base64'));
  if (size === undefined) fail('DRIVER_ERROR', 'screenshot: the browser returned an image we cannot read');
  return { mimeType: format === 'png' ? 'image/png' : 'image/jpeg', data: shot.data, ...size, clipped };
}

async function elementClip(tab: PageTab, target: ElementTarget, timeoutMs: number): Promise<Clip> {
  await runPage(tab, 'locate', { target }, { timeoutMs });
  const info = await runPage(tab, 'inspect', { target }, { timeoutMs });
  const box = (info as { box?: { x?: unknown; y?: unknown; width?: unknown; height?: unknown } } | null)?.box;
  if (
    box === undefined ||
    typeof box.x !== 'number' ||
    typeof box.y !== 'number' ||
    typeof box.width !== 'number' ||
    typeof box.height !== 'number'
  ) {
    fail('DRIVER_ERROR', 'screenshot: the page did not report the element box');
  }
  if (box.width <= 0 || box.height <= 0)
    fail('ELEMENT_NOT_INTERACTABLE', 'screenshot: the element has no size');
  // inspect reports the box in viewport coordinates; the clip is in document coordinates.
  const metrics = await tab.session.send('Page.getLayoutMetrics', {}, timeoutMs);
  const { pageX, pageY } = metrics.cssVisualViewport;
  return { x: box.x + pageX, y: box.y + pageY, width: box.width, height: box.height, scale: 1 };
}

/** The clip (the viewport when none) scaled so that the image is at most `maxWidth` pixels wide. */
async function scaledClip(
  tab: PageTab,
  clip: Clip | undefined,
  maxWidth: number,
  timeoutMs: number,
): Promise<Clip | undefined> {
  return clipAtMostWide(await tab.session.send('Page.getLayoutMetrics', {}, timeoutMs), clip, maxWidth);
}
