// Writes OrderDesk's app icon (resources/icon.png 1024x1024, resources/tray.png 32x32: a rounded teal
// square with a white order-ticket mark, an up arrow over three ruled lines) and one tray icon per
// tray state (resources/tray/<state>.png 16x16 and <state>@2x.png 32x32; Electron picks @2x on HiDPI).
// The states differ in colour AND shape, so they read apart for colour-blind users too:
//   live: a solid green disc · paper: a blue ring · offline: a grey disc struck through ·
//   key-problem: an amber warning triangle · paused: a slate disc with pause bars · alert: a red disc with "!" ·
//   locked: a purple padlock with a keyhole (the account guard holds a lock).
// No dependencies: the PNG is built by hand (RGBA, zlib-deflated scanlines, CRC-32 per chunk).
// Run with `node scripts/make-icons.mjs`; the output is committed, so this only runs on a redesign.
import { mkdirSync, writeFileSync } from 'node:fs';
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

/** An RGBA PNG of a `size` square: each pixel blends `colour(u, v)` layers by their coverage. */
function encode(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y);
      const o = row + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
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

/** A shape filled with `fill` and a white `mark` on it (both predicates on 0..1 coordinates). */
function icon(size, fill, shape, mark) {
  return encode(size, (x, y) => {
    const bg = coverage(size, x, y, shape);
    const m = mark ? coverage(size, x, y, (u, v) => shape(u, v) && mark(u, v)) : 0;
    return [
      Math.round(fill[0] * (1 - m) + 255 * m),
      Math.round(fill[1] * (1 - m) + 255 * m),
      Math.round(fill[2] * (1 - m) + 255 * m),
      Math.round(255 * bg),
    ];
  });
}

function png(size) {
  return icon(size, [0x0f, 0x76, 0x6e], inRoundedSquare, inMark);
}

const disc = (r) => (u, v) => (u - 0.5) ** 2 + (v - 0.5) ** 2 <= r * r;
const ring = (outer, inner) => (u, v) => disc(outer)(u, v) && !disc(inner)(u, v);
/** Distance from (u, v) to the segment (ax, ay)-(bx, by). */
function segmentDistance(u, v, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((u - ax) * dx + (v - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(u - (ax + t * dx), v - (ay + t * dy));
}
const triangle = (u, v) => v >= 0.1 && v <= 0.92 && Math.abs(u - 0.5) <= ((v - 0.1) / 0.82) * 0.48;
const exclamation = (top, bottom) => (u, v) =>
  (Math.abs(u - 0.5) <= 0.08 && v >= top && v <= bottom) ||
  (u - 0.5) ** 2 + (v - (bottom + 0.14)) ** 2 <= 0.085 ** 2;

const TRAY_ICONS = {
  live: (size) => icon(size, [0x16, 0xa3, 0x4a], disc(0.46)),
  paper: (size) => icon(size, [0x25, 0x63, 0xeb], ring(0.46, 0.24)),
  offline: (size) =>
    icon(
      size,
      [0x6b, 0x72, 0x80],
      disc(0.46),
      (u, v) => segmentDistance(u, v, 0.22, 0.22, 0.78, 0.78) <= 0.09,
    ),
  'key-problem': (size) => icon(size, [0xd9, 0x77, 0x06], triangle, exclamation(0.36, 0.64)),
  paused: (size) =>
    icon(
      size,
      [0x47, 0x55, 0x69],
      disc(0.46),
      (u, v) => v >= 0.28 && v <= 0.72 && Math.abs(Math.abs(u - 0.5) - 0.11) <= 0.06,
    ),
  alert: (size) => icon(size, [0xdc, 0x26, 0x26], disc(0.46), exclamation(0.2, 0.56)),
  // A padlock: its shackle a ring's upper half above a square body (no cut-out: solid at 16 px).
  locked: (size) =>
    icon(
      size,
      [0x7c, 0x3a, 0xed],
      (u, v) =>
        (v >= 0.46 && v <= 0.92 && Math.abs(u - 0.5) <= 0.36) || (v < 0.5 && ring(0.3, 0.18)(u, v + 0.12)),
      // A keyhole in the body.
      (u, v) =>
        (u - 0.5) ** 2 + (v - 0.64) ** 2 <= 0.08 ** 2 || (Math.abs(u - 0.5) <= 0.04 && v >= 0.64 && v <= 0.8),
    ),
};

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');
// 1024 px: electron-builder makes the macOS .icns and the Windows .ico from it (it needs at least 512).
writeFileSync(join(out, 'icon.png'), png(1024));
writeFileSync(join(out, 'tray.png'), png(32));
mkdirSync(join(out, 'tray'), { recursive: true });
for (const [state, draw] of Object.entries(TRAY_ICONS)) {
  writeFileSync(join(out, 'tray', `${state}.png`), draw(16));
  writeFileSync(join(out, 'tray', `${state}@2x.png`), draw(32));
}
console.log(
  `wrote ${join(out, 'icon.png')}, ${join(out, 'tray.png')} and ${Object.keys(TRAY_ICONS).length * 2} tray icons`,
);
