// A journal damaged at rest (random bytes over a page in its middle, a copy cut to 60 %) and one that
// stops taking writes while the core runs: the damage is found at start, not at the next order; what
// SQLite can still read is saved into a fresh journal and the trader is told how much; and an order
// whose intent cannot be written is refused as `storage`, in words, and never sent.
import { existsSync, mkdtempSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { damageMiddlePage, overwritePage } from '../../support/damage.js';
import { sbinMarketBuy as market } from '../../support/orders.js';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
const ORDERS = 24;

/** A data dir whose journal holds ORDERS orders placed through the core (quantity = 1…ORDERS). */
async function journalOfOrders(): Promise<{ dataDir: string; keychain: Harness['keychain'] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'journal-damage-'));
  const h = await startCore(paper, { dataDir });
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    for (let i = 0; i < ORDERS; i++) {
      const r = await h.core.router.invoke('orders.place', market(i + 1));
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    }
  } finally {
    await h.core.stop();
  }
  return { dataDir, keychain: h.keychain };
}

function storageEvents(h: Harness) {
  return h.of('session.storage');
}

describe('a journal damaged at rest', () => {
  it('random bytes over a middle page: found at start, readable entries saved, the trader told how many', async () => {
    const { dataDir, keychain } = await journalOfOrders();
    const dbPath = join(dataDir, 'journal.db');
    damageMiddlePage(dbPath, 7);

    const h = await startCore(paper, { dataDir, keychain });
    try {
      const notice = storageEvents(h).at(-1)?.journal;
      if (!notice) throw new Error('no start-up notice about the journal');
      expect(notice.total).toBe(ORDERS);
      expect(notice.backupPath).toMatch(/journal\.db\.corrupt-\d+$/);
      expect(existsSync(notice.backupPath)).toBe(true);
      expect(notice.message).toBe(
        `The journal was damaged: ${notice.saved} of ${ORDERS} entries saved; the damaged file is kept at ${notice.backupPath}`,
      );
      const read = await h.core.router.invoke('journal.query', { order: 'asc', limit: 1000 });
      if (!read.ok) throw new Error(JSON.stringify(read.error));
      expect(read.value.length).toBe(notice.saved);
      // One page of entries at most is lost.
      expect(notice.saved).toBeGreaterThanOrEqual(ORDERS - 12);
      // A reloaded window is told too.
      const snap = await h.core.router.invoke('session.snapshot');
      expect(snap.ok && snap.value.storage?.journal).toEqual(notice);
      // And orders go out, journalled, in the fresh journal.
      await h.core.router.invoke('settings.update', LIMITS);
      expect(await h.core.router.invoke('orders.place', market(99))).toMatchObject({ ok: true });
      const after = await h.core.router.invoke('journal.query', { limit: 1000 });
      expect(after.ok && after.value.length).toBe(notice.saved + 1);
    } finally {
      await h.stop();
    }
  });

  it('cut to 90 %: what can be read is saved, and the trader is told how much', async () => {
    const { dataDir, keychain } = await journalOfOrders();
    const dbPath = join(dataDir, 'journal.db');
    truncateSync(dbPath, Math.floor(statSync(dbPath).size * 0.9));
    const h = await startCore(paper, { dataDir, keychain });
    try {
      const read = await h.core.router.invoke('journal.query', { order: 'asc', limit: 1000 });
      if (!read.ok) throw new Error(JSON.stringify(read.error));
      console.log(`journal cut to 90 %: ${read.value.length} of ${ORDERS} entries saved`);
      const notice = storageEvents(h).at(-1)?.journal;
      expect(notice).toMatchObject({ saved: read.value.length, total: ORDERS });
      // Entries read whole keep their request, oldest first, none twice; any rebuilt from the indexes
      // alone say so ("unreadable") and keep their time and outcome.
      const whole = read.value.filter((e) => e.operation === 'placeorder');
      const quantities = whole.map((e) => (e.request as { quantity: number }).quantity);
      expect(new Set(quantities).size).toBe(quantities.length);
      expect([...quantities].sort((a, b) => a - b)).toEqual(quantities);
      expect(
        read.value.filter((e) => e.operation !== 'placeorder').every((e) => e.operation === 'unreadable'),
      ).toBe(true);
    } finally {
      await h.stop();
    }
  });
});

describe('an order whose intent cannot be journalled', () => {
  it('is refused as storage, in words, and never sent', async () => {
    const { dataDir, keychain } = await journalOfOrders();
    const h = await startCore(paper, { dataDir, keychain });
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      // The intents table's root page overwritten while the core runs (it passed the check at start);
      // a write by another connection makes the journal's connection read its pages again.
      const dbPath = join(dataDir, 'journal.db');
      overwritePage(dbPath, 1, 11);
      const other = new Database(dbPath);
      other.pragma('user_version = 2');
      other.close();
      const sentBefore = h.urls.filter((u) => u.endsWith('/placeorder')).length;
      const booked = await h.core.router.invoke('books.orders');
      const r = await h.core.router.invoke('orders.place', market(99));
      expect(r, JSON.stringify(r)).toMatchObject({ ok: false, error: { kind: 'storage' } });
      if (r.ok) return;
      expect(r.error.message).toMatch(/^Nothing was sent|No order is sent/);
      expect(r.error.message).toMatch(/damaged/);
      expect(r.error.message).toContain(dbPath);
      expect(h.urls.filter((u) => u.endsWith('/placeorder')).length).toBe(sentBefore);
      const book = await h.core.router.invoke('books.orders');
      expect(book.ok && booked.ok && book.value.orders.length).toBe(booked.ok && booked.value.orders.length);
    } finally {
      await h.stop();
    }
  });
});
