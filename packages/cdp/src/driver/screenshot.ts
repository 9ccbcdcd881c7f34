/**
 * Page.captureScreenshot for the viewport, the full page (captureBeyondViewport + the layout's
 * content size) or one element (scrolled into view, clipped to its box in document coordinates).
 */
import type { ElementTarget } from '@bproxy/protocol';
import { fail } from '@bproxy/driver';
import { imageSize } from './image-size';
import { runPage } from './page-runner';
import type { PageTab } from './page-tab';

export interface ScreenshotParams {
  target?: ElementTarget;
  fullPage?: boolean;
  format?: 'png' | 'jpeg';
  quality?: number;
}

export interface Screenshot {
  mimeType: 'image/png' | 'image/jpeg';
  data: string;
  width: number;
  height: number;
}

type Clip = { x: number; y: number; width: number; height: number; scale: number };

export async function captureScreenshot(
  tab: PageTab,
  params: ScreenshotParams,
  timeoutMs: number,
): Promise<Screenshot> {
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
  return { mimeType: format === 'png' ? 'image/png' : 'image/jpeg', data: shot.data, ...size };
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
