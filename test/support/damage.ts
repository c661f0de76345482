// Damage at rest, the same every run: seeded bytes (a fixed LCG) over a page of an SQLite file, as
// the journal, paper ledger and desk storage tests (and the data-damage stress suite) do it.
import { closeSync, openSync, readSync, statSync, writeSync } from 'node:fs';

/** `n` seeded bytes (a fixed LCG): the same damage every run. */
export function seededBytes(seed: number, n: number): Buffer {
  const bytes = Buffer.alloc(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** The page size from the SQLite header (big-endian u16 at offset 16; 1 means 65536). */
export function sqlitePageSize(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(2);
    readSync(fd, header, 0, 2, 16);
    const raw = header.readUInt16BE(0);
    return raw === 1 ? 65536 : raw;
  } finally {
    closeSync(fd);
  }
}

/** Seeded bytes over the whole page `page` (0-based) of `file`. */
export function overwritePage(file: string, page: number, seed: number): void {
  const pageSize = sqlitePageSize(file);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, seededBytes(seed, pageSize), 0, pageSize, page * pageSize);
  } finally {
    closeSync(fd);
  }
}

/** Seeded bytes over the page in the middle of `file`; how many pages the file has. */
export function damageMiddlePage(file: string, seed: number): number {
  const pages = Math.floor(statSync(file).size / sqlitePageSize(file));
  overwritePage(file, Math.floor(pages / 2), seed);
  return pages;
}
