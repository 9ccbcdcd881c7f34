// Draws the extension icon (a white "b" on a blue rounded square) as an RGBA PNG of any size, so
// no binary image has to live in the repository.
import { deflateSync } from 'node:zlib';
import { crc32 } from './crc32.mjs';

const BLUE = [37, 99, 235];
const SAMPLES = 4;

/** Coverage of the unit square [0,1]² → { bg, fg } at a point. */
function shapeAt(x, y) {
  const r = 0.2;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  const inSquare = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  // The "b": a stem and a ring.
  const stem = x >= 0.28 && x <= 0.4 && y >= 0.18 && y <= 0.8;
  const d = Math.hypot(x - 0.53, y - 0.6);
  const ring = d <= 0.22 && d >= 0.11;
  return { bg: inSquare, fg: inSquare && (stem || ring) };
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function iconPng(size) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let py = 0; py < size; py++) {
    raw[py * (size * 4 + 1)] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const s = shapeAt((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size);
          if (s.bg) bg++;
          if (s.fg) fg++;
        }
      }
      const total = SAMPLES * SAMPLES;
      const white = bg === 0 ? 0 : fg / bg;
      const o = py * (size * 4 + 1) + 1 + px * 4;
      for (let c = 0; c < 3; c++) raw[o + c] = Math.round(BLUE[c] * (1 - white) + 255 * white);
      raw[o + 3] = Math.round((255 * bg) / total);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
