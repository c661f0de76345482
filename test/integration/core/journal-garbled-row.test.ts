// A journal row that SQLite still reads but whose JSON was garbled at rest (random bytes inside the
// row, not across page structure: the quick check can pass, and a salvage can copy it). One such row
// must not make journal.query fail, nor every order after it (the check for an identical order in
// doubt reads the journal): it reads as an entry without its request, the rest as they were.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { sbinMarketBuy as order } from '../../support/orders.js';
import { LIMITS, startCore, usePaper } from '../../support/core-harness.js';

const paper = usePaper();

it('a garbled journal row: the journal still reads, orders still go through', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'journal-garbled-'));
  const first = await startCore(paper, { dataDir });
  try {
    await first.core.router.invoke('settings.update', LIMITS);
    for (const q of [1, 2])
      expect(await first.core.router.invoke('orders.place', order(q))).toMatchObject({ ok: true });
  } finally {
    await first.core.stop();
  }
  // What random bytes inside a row leave: text that is no longer JSON (a control character, cut off).
  const db = new Database(join(dataDir, 'journal.db'));
  db.pragma('ignore_check_constraints = ON');
  const { time, profile_id: profileId } = db
    .prepare('SELECT time, profile_id FROM intents LIMIT 1')
    .get() as {
    time: number;
    profile_id: string;
  };
  db.prepare(
    'INSERT INTO intents (id, time, profile_id, operation, request_json) VALUES (?, ?, ?, ?, ?)',
  ).run('garbled-1', time + 1, profileId, 'placeorder', '{"exchange":"NSE","symbol":"SB\u0001\u00ff');
  db.close();

  const h = await startCore(paper, { dataDir, keychain: first.keychain });
  try {
    const read = await h.core.router.invoke('journal.query', { order: 'asc', limit: 100 });
    if (!read.ok) throw new Error(JSON.stringify(read.error));
    expect(read.value).toHaveLength(3);
    const garbled = read.value.find((e) => e.id === 'garbled-1');
    expect(garbled).toBeDefined();
    expect(garbled?.request ?? null).toBeNull();
    const placed = await h.core.router.invoke('orders.place', order(3));
    expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true });
  } finally {
    await h.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
