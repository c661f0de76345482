// The journal as a CSV file, streamed: one page of entries at a time becomes one chunk of text, and
// the stream's backpressure paces the reads, so a year of entries never sits in memory as one string.
// The file is written beside its destination (mode 0600: it holds order details) and renamed into
// place when complete, so a failed export never leaves half a file where the user asked for one.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { JournalEntry } from '../../contract/index.js';
import { csvLine } from './csv.js';
import { JOURNAL_CSV_HEADER, journalCsvRow } from './journal-csv.js';

/** Writes the header and every entry of `pages` to `path`; answers how many rows were written. */
export async function writeJournalCsv(
  pages: Iterable<readonly JournalEntry[]>,
  path: string,
): Promise<number> {
  const partial = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.part`);
  let rows = 0;
  function* chunks(): Generator<string> {
    yield csvLine(JOURNAL_CSV_HEADER);
    for (const page of pages) {
      rows += page.length;
      yield page.map((e) => csvLine(journalCsvRow(e))).join('');
    }
  }
  // 'wx': never follow or reuse a file that is already there; 0600 whatever the user's umask allows.
  const file = await open(partial, 'wx', 0o600);
  try {
    // One chunk read ahead at most: the next page is read only once the file has taken the last.
    await pipeline(
      Readable.from(chunks(), { objectMode: true, highWaterMark: 1 }),
      file.createWriteStream({ encoding: 'utf8' }),
    );
    await rename(partial, path);
    return rows;
  } catch (err) {
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
}

/** A file-system error's code (EACCES, ENOSPC…), or undefined for anything else. */
export function fileErrorCode(err: unknown): string | undefined {
  if (err instanceof Error && 'code' in err && typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code))
    return err.code;
  return undefined;
}
