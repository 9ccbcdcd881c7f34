/** The extension icon as an RGBA PNG of size × size pixels. */
export function iconPng(size: number): Buffer;
