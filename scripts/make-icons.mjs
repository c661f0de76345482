// Writes OrderDesk's app and tray icons (resources/icon.png 256x256, resources/tray.png 32x32):
// a rounded teal square with a white order-ticket mark (an up arrow over three ruled lines).
// No dependencies: the PNG is built by hand (RGBA, zlib-deflated scanlines, CRC-32 per chunk).
// Run with `node scripts/make-icons.mjs`; the output is committed, so this only runs on a redesign.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Coverage (0..1) of pixel (x, y) in a `size` square, by 4x4 supersampling of `inside(u, v)` on 0..1. */
function coverage(size, x, y, inside) {
  let hits = 0;
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++) if (inside((x + (i + 0.5) / 4) / size, (y + (j + 0.5) / 4) / size)) hits++;
  return hits / 16;
}

function inRoundedSquare(u, v) {
  const r = 0.2;
  const cx = Math.min(Math.max(u, r), 1 - r);
  const cy = Math.min(Math.max(v, r), 1 - r);
  return (u - cx) ** 2 + (v - cy) ** 2 <= r * r;
}

function inMark(u, v) {
  // Up arrow: triangle head and a stem.
  const head = v >= 0.18 && v <= 0.42 && Math.abs(u - 0.5) <= (v - 0.18) * 0.9;
  const stem = v > 0.42 && v <= 0.56 && Math.abs(u - 0.5) <= 0.07;
  // Three ruled lines of a ticket.
  const line = [0.64, 0.73, 0.82].some((y) => Math.abs(v - y) <= 0.03) && u >= 0.24 && u <= 0.76;
  return head || stem || line;
}

function png(size) {
  const teal = [0x0f, 0x76, 0x6e];
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const bg = coverage(size, x, y, inRoundedSquare);
      const mark = coverage(size, x, y, (u, v) => inRoundedSquare(u, v) && inMark(u, v));
      const o = row + 1 + x * 4;
      for (let c = 0; c < 3; c++) raw[o + c] = Math.round(teal[c] * (1 - mark) + 255 * mark);
      raw[o + 3] = Math.round(255 * bg);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');
writeFileSync(join(out, 'icon.png'), png(256));
writeFileSync(join(out, 'tray.png'), png(32));
console.log(`wrote ${join(out, 'icon.png')} and ${join(out, 'tray.png')}`);
