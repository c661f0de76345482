// The journal's symbol and strategy filters (the desk's Journal search): a symbol matches any request
// field named symbol (a basket's legs too) from its start, any case; a strategy matches whole, any
// case; LIKE's wildcards in the text are literal; the file export takes the same filters.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalQuery } from '../../../../src-main/contract/index.js';
import { createJournal, writeJournalCsv, type Journal } from '../../../../src-main/core/journal/index.js';

let dir: string;
let journal: Journal;
let now = Date.UTC(2026, 10, 23, 4, 0, 0);
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-journal-search-'));
  journal = createJournal({ dbPath: join(dir, 'journal.sqlite'), clock: { now: () => now++ } });
});
afterEach(async () => {
  journal.close();
  await rm(dir, { recursive: true, force: true });
});

function record(operation: string, request: unknown): string {
  const { id } = journal.recordIntent({ profileId: 'paper', operation, request });
  journal.recordOutcome(id, { outcome: 'ok', response: { status: 'success', orderid: id.slice(0, 8) } });
  return id;
}

describe('journal search by symbol and strategy', () => {
  it('finds a symbol from its start in any case, basket legs included, and nothing else', () => {
    const sbin = record('placeorder', { symbol: 'SBIN', exchange: 'NSE', strategy: 'Scalp' });
    const nifty = record('placeorder', { symbol: 'NIFTY25NOV2524000CE', exchange: 'NFO', strategy: 'Desk' });
    const basket = record('basketorder', {
      strategy: 'Desk',
      orders: [
        { symbol: 'INFY', exchange: 'NSE' },
        { symbol: 'NIFTY25NOV2524000PE', exchange: 'NFO' },
      ],
    });
    record('cancelallorder', { strategy: 'Desk' });
    const ids = (q: JournalQuery) => journal.query(q).map((e) => e.id);
    expect(ids({ symbol: 'sbin' })).toEqual([sbin]);
    expect(ids({ symbol: 'NIFTY', order: 'asc' })).toEqual([nifty, basket]);
    expect(ids({ symbol: 'infy' })).toEqual([basket]);
    // From the start only: BIN is inside SBIN, not where it begins.
    expect(ids({ symbol: 'BIN' })).toEqual([]);
    expect(ids({ strategy: 'scalp' })).toEqual([sbin]);
    // Whole, not a prefix.
    expect(ids({ strategy: 'Des' })).toEqual([]);
    expect(ids({ strategy: 'desk', symbol: 'NIFTY', order: 'asc' })).toEqual([nifty, basket]);
  });

  it('takes % and _ in the text literally', () => {
    record('placeorder', { symbol: 'SBIN', strategy: 'A_B' });
    record('placeorder', { symbol: 'SBIN', strategy: 'AxB' });
    expect(journal.query({ symbol: '%' })).toEqual([]);
    expect(journal.query({ symbol: 'S_IN' })).toEqual([]);
    expect(journal.query({ strategy: 'A_B' }).map((e) => e.request)).toEqual([
      { symbol: 'SBIN', strategy: 'A_B' },
    ]);
  });

  it('the file export writes exactly the rows the same filters query', async () => {
    record('placeorder', { symbol: 'SBIN', strategy: 'Desk' });
    record('placeorder', { symbol: 'INFY', strategy: 'Desk' });
    record('placeorder', { symbol: 'SBIN', strategy: 'Other' });
    const path = join(dir, 'out.csv');
    const rows = await writeJournalCsv(journal.pages({ symbol: 'SBIN', strategy: 'desk' }), path);
    expect(rows).toBe(1);
    const lines = (await readFile(path, 'utf8')).trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('SBIN');
    expect(lines[1]).toContain('Desk');
  });

  it('refuses an empty or overlong filter (the contract says which)', () => {
    expect(JournalQuery.safeParse({ symbol: '  ' }).success).toBe(false);
    expect(JournalQuery.safeParse({ strategy: 'x'.repeat(65) }).success).toBe(false);
  });
});
