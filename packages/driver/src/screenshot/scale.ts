/**
 * `screenshot --max-width`: the capture's clip (the viewport when none) scaled so that the image is at
 * most `maxWidth` pixels wide, from the page's layout metrics (Page.getLayoutMetrics). Both drivers
 * capture with CDP's Page.captureScreenshot, whose clip carries the scale.
 */

export interface ScreenshotClip {
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
}

/** The part of Page.getLayoutMetrics this reads. */
export interface ViewportMetrics {
  /** In CSS pixels. */
  cssVisualViewport?: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  /** In device pixels: its width over the CSS one is the device pixel ratio. */
  visualViewport?: { clientWidth: number };
}

/** The clip to capture so the image is at most `maxWidth` wide; `clip` itself when it already is. */
export function clipAtMostWide(
  metrics: ViewportMetrics,
  clip: ScreenshotClip | undefined,
  maxWidth: number,
): ScreenshotClip | undefined {
  const css = metrics.cssVisualViewport;
  if (!css) return clip;
  const ratio =
    metrics.visualViewport && css.clientWidth > 0 ? metrics.visualViewport.clientWidth / css.clientWidth : 1;
  const area = clip ?? {
    x: css.pageX,
    y: css.pageY,
    width: css.clientWidth,
    height: css.clientHeight,
    scale: 1,
  };
  const wide = area.width * ratio;
  if (wide <= maxWidth) return clip;
  return { ...area, scale: maxWidth / wide };
}
