// Damaged files at start: a settings.json that is not JSON and a journal database cut short (a disk
// that filled, a copy interrupted). The core starts, says what it did (backup kept, defaults used)
// and keeps every journal entry SQLite can still read from the damaged file.
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, PAPER_PROFILE_ID } from '../../../src-main/contract/index.js';
import { createJournal } from '../../../src-main/core/journal/index.js';
import Database from 'better-sqlite3';
import { LIMITS, restingBuy, startCore, usePaper } from '../../support/core-harness.js';

const paper = usePaper();
const WRITTEN = 300;

/** A journal of an earlier run: WRITTEN placed orders, oldest first (quantity = its index). */
function writeJournal(dbPath: string): void {
  const journal = createJournal({ dbPath });
  for (let i = 0; i < WRITTEN; i++) {
    const { id } = journal.recordIntent({
      profileId: PAPER_PROFILE_ID,
      operation: 'placeorder',
      request: { symbol: 'SBIN', exchange: 'NSE', quantity: i + 1, note: 'x'.repeat(200) },
    });
    journal.recordOutcome(id, { outcome: 'ok', response: { status: 'success', orderid: `9${i}` } });
  }
  journal.close();
}

describe('core start on damaged files', () => {
  it('keeps a corrupt settings.json as .bak, uses defaults, and says so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'core-rest-'));
    const garbage = '{"risk": {"maxQuantityPerOrder": 5,';
    writeFileSync(join(dataDir, 'settings.json'), garbage);
    const h = await startCore(paper, { dataDir });
    try {
      const s = await h.core.router.invoke('settings.get', undefined);
      expect(s.ok && s.value.risk).toEqual(DEFAULT_SETTINGS.risk);
      expect(readFileSync(join(dataDir, 'settings.json.bak'), 'utf8')).toBe(garbage);
      const said = h.logger.entries.filter((e) => e.level === 'warn').map((e) => e.message);
      expect(said.some((m) => m.includes('settings.json') && m.includes('.bak'))).toBe(true);
      // And the defaults can be saved over the broken file.
      expect((await h.core.router.invoke('settings.update', LIMITS)).ok).toBe(true);
    } finally {
      await h.stop();
    }
  });

  it('starts on a truncated journal: the file kept aside, every readable entry kept, new ones written', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'core-rest-'));
    const dbPath = join(dataDir, 'journal.db');
    writeJournal(dbPath);
    // Cut inside a page, 10 % from the end: the header still counts the pages that are gone.
    truncateSync(dbPath, Math.floor(statSync(dbPath).size * 0.9));

    const h = await startCore(paper, { dataDir });
    try {
      const warning = h.logger.entries.find((e) => e.level === 'warn' && e.message.includes('journal.db'));
      expect(warning).toBeDefined();
      const salvaged = (warning?.fields?.salvaged ?? {}) as Record<string, number>;
      const backups = warning?.message.match(/journal\.db\.corrupt-\d+/g) ?? [];
      expect(backups).toHaveLength(1);
      expect(existsSync(join(dataDir, backups[0] ?? ''))).toBe(true);

      const read = await h.core.router.invoke('journal.query', { order: 'asc', limit: 1000 });
      if (!read.ok) throw new Error(JSON.stringify(read.error));
      const kept = read.value;
      // Most of the file was readable; the entries read whole are the oldest ones, in order, none
      // twice; those whose rows were lost but whose index entries were not come back "unreadable".
      const whole = kept.filter((e) => e.operation === 'placeorder');
      expect(whole.length).toBeGreaterThan(WRITTEN / 2);
      expect(whole.length).toBeLessThan(WRITTEN);
      expect(kept.every((e) => e.operation === 'placeorder' || e.operation === 'unreadable')).toBe(true);
      expect(salvaged.intents).toBe(kept.length);
      expect(whole.map((e) => (e.request as { quantity: number }).quantity)).toEqual(
        whole.map((_, i) => i + 1),
      );
      // An entry whose outcome page survived keeps its outcome and order id.
      expect(kept.filter((e) => e.outcome === 'ok').length).toBe(salvaged.outcomes);
      expect(kept[0]).toMatchObject({ outcome: 'ok', orderIds: ['90'] });

      // The new journal takes new entries.
      await h.core.router.invoke('settings.update', LIMITS);
      const placed = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'MARKET',
        product: 'MIS',
      });
      expect(placed.ok, JSON.stringify(placed)).toBe(true);
      const after = await h.core.router.invoke('journal.query', { limit: 1000 });
      expect(after.ok && after.value.length).toBe(kept.length + 1);
    } finally {
      await h.stop();
    }
  });

  it('a journal cut inside its last page (SQLite opens it without a word) is salvaged too, and reads', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'core-rest-'));
    const dbPath = join(dataDir, 'journal.db');
    writeJournal(dbPath);
    truncateSync(dbPath, statSync(dbPath).size - 2048);
    const h = await startCore(paper, { dataDir });
    try {
      const warning = h.logger.entries.find((e) => e.level === 'warn' && e.message.includes('journal.db'));
      expect(warning?.message).toMatch(/journal\.db\.corrupt-\d+/);
      const read = await h.core.router.invoke('journal.query', { order: 'asc', limit: 1000 });
      if (!read.ok) throw new Error(JSON.stringify(read.error));
      // Only the rows on the half-lost page (a dozen of these) are gone.
      expect(read.value.length).toBeGreaterThan(WRITTEN - 20);
      expect(read.value.length).toBe((warning?.fields?.salvaged as Record<string, number>).intents);
    } finally {
      await h.stop();
    }
  });

  it('starts on a journal cut to its header alone, with an empty journal and the file kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'core-rest-'));
    const dbPath = join(dataDir, 'journal.db');
    writeJournal(dbPath);
    truncateSync(dbPath, 100);
    const h = await startCore(paper, { dataDir });
    try {
      const read = await h.core.router.invoke('journal.query', { limit: 10 });
      expect(read.ok && read.value).toEqual([]);
      expect(
        h.logger.entries.some((e) => e.level === 'warn' && /journal\.db\.corrupt-\d+/.test(e.message)),
      ).toBe(true);
    } finally {
      await h.stop();
    }
  });

  it('starts on a truncated watcher.db: kept aside, what it still held not reported again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'core-rest-'));
    const first = await startCore(paper, { dataDir });
    const placed: string[] = [];
    try {
      await first.core.router.invoke('settings.update', LIMITS);
      await first.core.pollNow(); // the baseline
      for (let i = 0; i < 60; i++) placed.push((await restingBuy(paper, first, 'ITC', i + 1)).orderid);
      await first.core.pollNow(); // every order seen, and stored
    } finally {
      await first.core.stop();
    }
    const dbPath = join(dataDir, 'watcher.db');
    // Cut to 60 %: the last tables' pages are lost, the seen orders' first pages are not.
    truncateSync(dbPath, Math.floor(statSync(dbPath).size * 0.6));

    const h = await startCore(paper, { dataDir, keychain: first.keychain });
    try {
      const warning = h.logger.entries.find((e) => e.level === 'warn' && e.message.includes('watcher.db'));
      const backup = warning?.message.match(/watcher\.db\.corrupt-\d+/)?.[0];
      expect(backup && existsSync(join(dataDir, backup))).toBe(true);
      // What the new store holds is what was read from the old one.
      const db = new Database(dbPath, { readonly: true });
      const kept = new Set(
        (db.prepare('SELECT orderid FROM seen_orders').all() as { orderid: string }[]).map((r) => r.orderid),
      );
      db.close();
      expect((warning?.fields?.salvaged as Record<string, number>).seen_orders).toBe(kept.size);
      expect(kept.size).toBeGreaterThan(0);

      const events = await h.during(() => h.core.pollNow());
      const news = events
        .filter((e) => e.name === 'orders.accepted')
        .map((e) => (e.payload as { order: { orderid: string } }).order.orderid);
      // An order the salvaged store remembers is not news; one whose row was lost is, once.
      expect(news.filter((id) => kept.has(id))).toEqual([]);
      expect(new Set(news).size).toBe(news.length);
      expect(news.every((id) => placed.includes(id))).toBe(true);
    } finally {
      await h.stop();
    }
  });
});
