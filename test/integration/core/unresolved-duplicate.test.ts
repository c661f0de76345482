// The same order again while an earlier identical one's outcome is in doubt (its intent journalled and
// no answer recorded: OrderDesk stopped during the call; or an unknown outcome not settled yet, or
// settled "placed after all" a moment ago) is held back with the reason in words, whatever the
// duplicate window says; `confirmDuplicate` sends it deliberately. A restarted core settles an
// interrupted order at once when the book already shows it, rather than 20 s after its intent.
// Against the real paper gateway; nothing is ever resent by the core.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_PROFILE_ID } from '../../../src-main/contract/index.js';
import { createJournal } from '../../../src-main/core/journal/index.js';
import { LIMITS, startCore, usePaper, type Harness } from './core-harness.js';

const paper = usePaper();

const PLACE = '/api/v1/placeorder';
/** The harness's cores and the test gateway both start at this moment (10:00:00 IST). */
const T0 = Date.parse('2026-11-20T10:00:00+05:30');

const ORDER = {
  symbol: 'HDFCBANK',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 7,
  pricetype: 'MARKET',
  product: 'MIS',
  price: 0,
} as const;

/**
 * A core run that wrote the order's intent `ageMs` before the next core's start and died before the
 * answer (the SIGKILL 600 ms after sending, with the gateway's answer held 3 s).
 */
async function crashedRun(ageMs: number) {
  const first = await startCore(paper);
  const { dataDir, keychain } = first;
  await first.core.stop();
  const journal = createJournal({ dbPath: join(dataDir, 'journal.db'), clock: { now: () => T0 - ageMs } });
  const { id } = journal.recordIntent({
    profileId: PAPER_PROFILE_ID,
    operation: 'placeorder',
    request: { ...ORDER, strategy: 'OrderDesk' },
  });
  journal.close();
  const key = keychain.items.get(`OrderDesk/${PAPER_PROFILE_ID}`);
  if (!key) throw new Error('no paper key');
  return { dataDir, keychain, id, key };
}

/** The interrupted request reaching the gateway (the dead core's call, placed late or at once). */
async function placeDirectly(key: string): Promise<string> {
  const r = await paper.gw.api('placeorder', key, { ...ORDER, strategy: 'OrderDesk' });
  expect(r.status).toBe(200);
  return String(r.body.orderid);
}

async function bookSize(key: string): Promise<number> {
  const r = await paper.gw.api('orderbook', key);
  return (r.body.data as { orders: unknown[] }).orders.length;
}

async function entry(h: Harness, id: string) {
  const r = await h.core.router.invoke('journal.query', { operation: 'placeorder' });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.find((e) => e.id === id);
}

async function restarted(dataDir: string, keychain: Awaited<ReturnType<typeof crashedRun>>['keychain']) {
  const h = await startCore(paper, { dataDir, keychain });
  const set = await h.core.router.invoke('settings.update', LIMITS);
  if (!set.ok) throw new Error(JSON.stringify(set.error));
  return h;
}

describe('the same order again while an earlier identical one is unresolved', () => {
  it('after a restart, 4 s on (past the 2 s window), is held with the time in words; confirmed, it goes', async () => {
    const { dataDir, keychain, id, key } = await crashedRun(4_000);
    const h = await restarted(dataDir, keychain);
    try {
      await h.core.pollNow();
      const sent = paper.proxy.forwardedTo(PLACE);
      const held = await h.core.router.invoke('orders.place', { ...ORDER });
      expect(held.ok).toBe(false);
      if (held.ok) return;
      expect(held.error.kind).toBe('unresolved_duplicate');
      expect(held.error.message).toContain('the same order from 09:59:56 is still being reconciled');
      expect(held.error.message).toContain('BUY 7 HDFCBANK NSE');
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent);
      expect(await bookSize(key)).toBe(0);
      // The earlier entry is left as it was: still pending, nothing settled by the refusal.
      expect((await entry(h, id))?.outcome).toBe('pending');

      const deliberate = await h.core.router.invoke('orders.place', { ...ORDER, confirmDuplicate: true });
      expect(deliberate.ok).toBe(true);
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent + 1);
      expect(await bookSize(key)).toBe(1);
    } finally {
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('once the book says the earlier one was not placed, the same order goes without a hold', async () => {
    const { dataDir, keychain, id } = await crashedRun(4_000);
    const h = await restarted(dataDir, keychain);
    try {
      await h.core.pollNow();
      // Adopted 20 s after its intent, then "not placed" after the watcher's patience.
      await h.clock.advance(17_000);
      await h.core.pollNow();
      await h.clock.advance(6_000);
      await h.core.pollNow();
      expect((await entry(h, id))?.resolution).toMatchObject({ found: false });
      const r = await h.core.router.invoke('orders.place', { ...ORDER });
      expect(r.ok).toBe(true);
    } finally {
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an unknown outcome of this run holds place, split, basket and smart alike until settled, then "placed after all"', async () => {
    const h = await startCore(paper);
    try {
      // The duplicate window off: the hold does not depend on it.
      const set = await h.core.router.invoke('settings.update', {
        risk: { ...LIMITS.risk, duplicateWindowMs: 0 },
      });
      expect(set.ok).toBe(true);
      await h.core.pollNow();
      // The request reaches the gateway; the connection drops before the answer.
      paper.proxy.enqueue({ kind: 'drop' }, PLACE);
      const first = await h.core.router.invoke('orders.place', { ...ORDER });
      expect(!first.ok && first.error.kind).toBe('unknown_outcome');
      const sent = paper.proxy.forwardedTo(PLACE);

      const words = 'the same order from 10:00:00 is still being reconciled';
      const place = await h.core.router.invoke('orders.place', { ...ORDER });
      expect(!place.ok && place.error).toMatchObject({ kind: 'unresolved_duplicate' });
      expect(!place.ok && place.error.message).toContain(words);
      const split = await h.core.router.invoke('orders.split', { ...ORDER, splitsize: 3 });
      expect(!split.ok && split.error).toMatchObject({ kind: 'unresolved_duplicate' });
      const basket = await h.core.router.invoke('orders.basket', {
        orders: [{ ...ORDER, symbol: 'SBIN' }, { ...ORDER }],
      });
      expect(!basket.ok && basket.error).toMatchObject({ kind: 'unresolved_duplicate' });
      expect(!basket.ok && basket.error.message).toContain(words);
      // The dropped order filled (+7): a target of +14 is the same BUY 7.
      const smart = await h.core.router.invoke('orders.smart', { ...ORDER, position_size: 14 });
      expect(!smart.ok && smart.error).toMatchObject({ kind: 'unresolved_duplicate' });
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent);

      // Another quantity is another order: not held.
      const other = await h.core.router.invoke('orders.place', { ...ORDER, quantity: 8 });
      expect(other.ok).toBe(true);

      // Settled from the book: it was placed after all, and the same order is still held a while.
      await h.core.pollNow();
      const settled = h.of('orders.reconciled').find((r) => r.found);
      expect(settled?.orderid).toBeTruthy();
      const again = await h.core.router.invoke('orders.place', { ...ORDER });
      expect(!again.ok && again.error).toMatchObject({ kind: 'unresolved_duplicate' });
      expect(!again.ok && again.error.message).toContain(
        `the same order from 10:00:00 was placed after all (order ${settled?.orderid}`,
      );
      const deliberate = await h.core.router.invoke('orders.place', { ...ORDER, confirmDuplicate: true });
      expect(deliberate.ok).toBe(true);
    } finally {
      await h.stop();
    }
  });
});

describe('a restarted core and an order it had in flight', () => {
  it('settles it at once when the book already shows it, and still holds the same order', async () => {
    const { dataDir, keychain, id, key } = await crashedRun(4_000);
    const orderid = await placeDirectly(key);
    const h = await restarted(dataDir, keychain);
    try {
      await h.core.pollNow();
      await h.core.pollNow();
      // Well inside the 20 s adoption age: the book could already say.
      expect(h.of('orders.reconciled')).toMatchObject([{ journalId: id, found: true, orderid }]);
      const e = await entry(h, id);
      expect(e).toMatchObject({ outcome: 'unknown', error: { kind: 'interrupted' } });
      expect(e?.orderIds).toEqual([orderid]);
      expect(h.of('orders.unknown')).toHaveLength(1);

      const held = await h.core.router.invoke('orders.place', { ...ORDER });
      expect(!held.ok && held.error.kind).toBe('unresolved_duplicate');
      expect(!held.ok && held.error.message).toContain(
        `the same order from 09:59:56 was placed after all (order ${orderid}`,
      );
      expect(await bookSize(key)).toBe(1);
    } finally {
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves it pending while the book cannot say, and settles it on the first read that can', async () => {
    const { dataDir, keychain, id, key } = await crashedRun(4_000);
    const h = await restarted(dataDir, keychain);
    try {
      await h.core.pollNow();
      expect((await entry(h, id))?.outcome).toBe('pending');
      expect(h.of('orders.unknown')).toEqual([]);
      // The gateway acts on the dead core's request late.
      const orderid = await placeDirectly(key);
      await h.clock.advance(2_000);
      await h.core.pollNow();
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toMatchObject([{ journalId: id, found: true, orderid }]);
    } finally {
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
