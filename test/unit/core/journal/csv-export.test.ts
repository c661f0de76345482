// The journal's CSV streamed to a file: byte-identical to the in-memory export, written page by page
// (the file grows while the journal is still being read), keyset pages that rows written meanwhile
// cannot shift, mode 0600, and nothing left behind when the file cannot be written.
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../../src-main/contract/index.js';
import {
  createJournal,
  fileErrorCode,
  writeJournalCsv,
  type Journal,
} from '../../../../src-main/core/journal/index.js';

const ENTRIES = 10_500;
const T0 = Date.UTC(2024, 4, 14, 3, 45, 0, 0);

let dir: string;
let now: number;
let journal: Journal;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-export-'));
  now = T0;
  journal = createJournal({ dbPath: ':memory:', clock: { now: () => now } });
});
afterEach(async () => {
  journal.close();
  await rm(dir, { recursive: true, force: true });
});

/** `n` entries over two profiles with every kind of outcome and text CSV must quote or neutralise. */
function fill(n: number): void {
  for (let i = 0; i < n; i++) {
    // Several entries share a millisecond: pages must break ties by insertion order.
    if (i % 3 === 0) now += 1;
    const profileId = i % 4 === 0 ? 'broker-1' : 'paper';
    const { id } = journal.recordIntent({
      profileId,
      operation: i % 5 === 0 ? 'cancelorder' : 'placeorder',
      request: { symbol: i % 7 === 0 ? 'M&M' : 'SBIN', quantity: i, tag: `a,"b"\n${i}` },
    });
    if (i % 10 === 9) continue; // pending
    if (i % 10 === 8)
      journal.recordOutcome(id, {
        outcome: 'error',
        error: { kind: 'bad_input', message: `=HYPERLINK("x${i}")`, httpStatus: 400 },
      });
    else
      journal.recordOutcome(id, { outcome: 'ok', response: { status: 'success', orderid: `${1000 + i}` } });
  }
}

/** Pages of `journal`, noting each page's size and how much of the file was written when it was asked for. */
function watched(pages: Iterable<JournalEntry[]>) {
  const sizes: number[] = [];
  const fileBytes: number[] = [];
  const partialSize = (): number => {
    const part = readdirSync(dir).find((f) => f.endsWith('.part'));
    return part ? statSync(join(dir, part)).size : 0;
  };
  function* wrap(): Generator<JournalEntry[]> {
    for (const page of pages) {
      sizes.push(page.length);
      fileBytes.push(partialSize());
      yield page;
    }
  }
  return { pages: wrap(), sizes, fileBytes };
}

describe('the streamed CSV export', () => {
  it(`writes ${ENTRIES} entries page by page, byte-identical to the single-string export`, async () => {
    fill(ENTRIES);
    const path = join(dir, 'journal.csv');
    const w = watched(journal.pages({}, 500));
    const rows = await writeJournalCsv(w.pages, path);
    expect(rows).toBe(ENTRIES);
    const file = await readFile(path);
    expect(file.equals(Buffer.from(journal.exportCsv(), 'utf8'))).toBe(true);
    // 21 pages of at most 500: never the whole journal in memory at once.
    expect(w.sizes).toHaveLength(Math.ceil(ENTRIES / 500));
    expect(Math.max(...w.sizes)).toBe(500);
    // The file grew while the journal was still being read: each page waited for the file to take
    // the ones before it (one read ahead at most), so rows went out as they were read.
    const perPage = file.length / w.sizes.length;
    w.fileBytes.forEach((written, page) =>
      expect(written).toBeGreaterThanOrEqual((page - 2) * perPage * 0.9),
    );
    expect(w.fileBytes.at(-1)).toBeLessThan(file.length);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('follows the filters and the order, like the single-string export', async () => {
    fill(1200);
    const query = { profileId: 'paper', outcome: 'ok', order: 'desc' } as const;
    const path = join(dir, 'paper.csv');
    const rows = await writeJournalCsv(journal.pages(query, 128), path);
    const expected = journal.exportCsv(query);
    expect(await readFile(path, 'utf8')).toBe(expected);
    expect(rows).toBe(expected.split('\r\n').length - 2);
    expect(rows).toBeGreaterThan(128);
  });

  it('rows written while exporting never shift a page: each entry once, newest first', async () => {
    fill(300);
    const before = journal.query({ limit: 100_000 }).map((e) => e.id);
    const seen: string[] = [];
    for (const page of journal.pages({ order: 'desc' }, 50)) {
      seen.push(...page.map((e) => e.id));
      // An order action lands between two pages (it is newer than all, so it is not in this export).
      now += 1;
      journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: {} });
    }
    expect(seen).toEqual(before);
  });

  it('replaces a file already at the path, and refuses a nonsense page size', async () => {
    fill(3);
    const path = join(dir, 'old.csv');
    await writeFile(path, 'old content that is longer than nothing', { mode: 0o644 });
    expect(await writeJournalCsv(journal.pages(), path)).toBe(3);
    expect(await readFile(path, 'utf8')).toBe(journal.exportCsv());
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(() => [...journal.pages({}, 0)]).toThrow(/page size/);
  });

  it('fails with the file system’s code and leaves no partial file behind', async () => {
    fill(3);
    const missing = join(dir, 'no-such-dir', 'journal.csv');
    const err = await writeJournalCsv(journal.pages(), missing).catch((e: unknown) => e);
    expect(fileErrorCode(err)).toBe('ENOENT');
    // A failure halfway: the pages themselves throw after one was written.
    const path = join(dir, 'half.csv');
    function* failing(): Generator<JournalEntry[]> {
      yield journal.query({ order: 'asc' });
      throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    }
    const half = await writeJournalCsv(failing(), path).catch((e: unknown) => e);
    expect(fileErrorCode(half)).toBe('ENOSPC');
    expect(await readdir(dir)).toEqual([]);
    expect(fileErrorCode(new Error('not a file error'))).toBeUndefined();
  });
});
