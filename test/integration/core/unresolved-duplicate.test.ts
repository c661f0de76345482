// The same order again while an earlier identical one's outcome is in doubt (its intent journalled and
// no answer recorded: OrderDesk stopped during the call; or an unknown outcome not settled yet, or
// settled "placed after all" a moment ago) is held back with the reason in words, whatever the
// duplicate window says; `confirmDuplicate` sends it deliberately. A restarted core settles an
// interrupted order at once when the book already shows it, rather than 20 s after its intent.
// Against the real paper gateway; nothing is ever resent by the core.
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS, startCore, usePaper } from '../../support/core-harness.js';
import {
  INTERRUPTED_ORDER,
  interruptedOrder,
  journalEntry,
  type CrashedRun,
} from '../../support/crashed-run.js';

const paper = usePaper();

const PLACE = '/api/v1/placeorder';

const ORDER = INTERRUPTED_ORDER;

/** The earlier order's intent, as the dead core journalled it and the gateway would have had it. */
const { crashedRun, placeDirectly, bookSize } = interruptedOrder(paper, { ...ORDER, strategy: 'OrderDesk' });

async function restarted(dataDir: string, keychain: CrashedRun['keychain']) {
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
      expect((await journalEntry(h, id))?.outcome).toBe('pending');

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
      expect((await journalEntry(h, id))?.resolution).toMatchObject({ found: false });
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
      const e = await journalEntry(h, id);
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
      expect((await journalEntry(h, id))?.outcome).toBe('pending');
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
