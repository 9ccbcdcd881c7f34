import { describe, expect, it } from 'vitest';
import { imageSize } from '../../src/driver/image-size';

describe('image size', () => {
  it('reads PNG and JPEG dimensions from their headers', () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.writeUInt32BE(800, 16);
    png.writeUInt32BE(600, 20);
    expect(imageSize(png)).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment of 4 bytes, then SOF0 with height 30 and width 40.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x1e, 0x00, 0x28,
      0x03,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 40, height: 30 });
    expect(imageSize(Buffer.from('nope'))).toBeUndefined();
  });
});
