// A GTT action whose intent was journalled but whose answer never was (OrderDesk stopped during the
// call): the next core makes it an unknown outcome, says so once, and settles it from the GTT order book
// (a place: the one GTT with its legs and triggers created since the intent; a modify: the GTT's
// triggers and prices; a cancel: its status), or leaves it to the trader in words when two GTTs could
// be it. The same GTT placed again while one is in doubt is held with the reason in words unless the
// trader confirms. Against the real paper gateway behind the fault proxy; nothing is ever resent.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_PROFILE_ID } from '../../../src-main/contract/index.js';
import { createJournal } from '../../../src-main/core/journal/index.js';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

const PLACE = '/api/v1/placegttorder';
const MODIFY = '/api/v1/modifygttorder';
const CANCEL = '/api/v1/cancelgttorder';
/** The harness's cores and the test gateway both start at this moment (10:00:00 IST). */
const T0 = Date.parse('2026-11-20T10:00:00+05:30');

/** A SINGLE BUY CNC GTT 3 % under the market (leg limit 2 % under), as gtt.place takes it. */
function single(symbol: string, quantity = 3) {
  const i = paper.inst('NSE', symbol);
  const ltp = paper.ltp(i);
  return {
    trigger_type: 'SINGLE',
    exchange: 'NSE',
    symbol,
    action: 'BUY',
    product: 'CNC',
    quantity,
    pricetype: 'LIMIT',
    price: paper.onTick(i, ltp * 0.98),
    triggerprice_sl: paper.onTick(i, ltp * 0.97),
    triggerprice_tg: 0,
    stoploss: 0,
    target: 0,
  } as const;
}

type Keychain = Harness['keychain'];

/** A first core run (its paper key made), stopped; its data dir and keychain for the next one. */
async function firstRun(before?: (h: Harness) => Promise<void>) {
  const first = await startCore(paper);
  const { dataDir, keychain } = first;
  try {
    await first.core.router.invoke('settings.update', LIMITS);
    await before?.(first);
  } finally {
    await first.core.stop();
  }
  const key = keychain.items.get(`OrderDesk/${PAPER_PROFILE_ID}`);
  if (!key) throw new Error('no paper key');
  return { dataDir, keychain, key };
}

/** What the GTT handlers write before the gateway call, `ageMs` before the next core's start; no answer. */
function crashedIntent(dataDir: string, operation: string, request: object, ageMs = 60_000): string {
  const journal = createJournal({ dbPath: join(dataDir, 'journal.db'), clock: { now: () => T0 - ageMs } });
  const { id } = journal.recordIntent({ profileId: PAPER_PROFILE_ID, operation, request });
  journal.close();
  return id;
}

/** The interrupted request reaching the gateway (the dead core's call, acted on). */
async function gatewayCall(operation: string, key: string, fields: object): Promise<string> {
  const r = await paper.gw.api(operation, key, { ...fields });
  expect(r.status).toBe(200);
  return String(r.body.trigger_id);
}

async function gttBook(key: string) {
  const r = await paper.gw.api('gttorderbook', key, { status: 'all' });
  expect(r.status).toBe(200);
  return r.body.data as { trigger_id: string; status: string; trigger_prices: number[] }[];
}

async function entry(h: Harness, id: string) {
  const r = await h.core.router.invoke('journal.query', {});
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.find((e) => e.id === id);
}

async function restarted(dataDir: string, keychain: Keychain) {
  const h = await startCore(paper, { dataDir, keychain });
  const set = await h.core.router.invoke('settings.update', LIMITS);
  if (!set.ok) throw new Error(JSON.stringify(set.error));
  return h;
}

const alertsAbout = (h: Harness, id: string) => h.of('alerts.raised').filter((a) => a.id.endsWith(`:${id}`));

describe('a GTT action interrupted before its answer was journalled', () => {
  it('a place is settled at the next start as placed, with the GTT the book shows, never resent', async () => {
    const { dataDir, keychain, key } = await firstRun();
    const request = { ...single('SBIN'), strategy: 'OrderDesk' };
    const id = crashedIntent(dataDir, 'placegttorder', request);
    const triggerId = await gatewayCall('placegttorder', key, request);
    const sent = paper.proxy.forwardedTo(PLACE);
    const h = await restarted(dataDir, keychain);
    try {
      expect(h.of('orders.unknown')).toMatchObject([{ journalId: id, operation: 'placegttorder' }]);
      expect(h.of('orders.unknown')[0]?.message).toContain(
        "OrderDesk stopped before the gateway's answer was recorded: placegttorder SINGLE BUY 3 SBIN NSE",
      );
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toMatchObject([
        { journalId: id, operation: 'placegttorder', found: true, triggerId },
      ]);
      const e = await entry(h, id);
      expect(e).toMatchObject({ outcome: 'unknown', error: { kind: 'interrupted' } });
      expect(e?.resolution).toMatchObject({ found: true, orderid: triggerId });
      expect(alertsAbout(h, id)).toHaveLength(1);
      // Settled once: later reads say nothing more.
      await h.clock.advance(6_000);
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toHaveLength(1);
    } finally {
      await h.stop();
    }
    expect(paper.proxy.forwardedTo(PLACE)).toBe(sent);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a place is settled as not placed when no new GTT matches (one of another entry does not count)', async () => {
    const request = { ...single('ITC'), strategy: 'OrderDesk' };
    let own = '';
    const { dataDir, keychain, key } = await firstRun(async (h) => {
      // The same GTT placed and answered by the first run: its journal entry holds it.
      const r = await h.core.router.invoke('gtt.place', single('ITC'));
      own = r.ok ? r.value.trigger_id : JSON.stringify(r.error);
    });
    const id = crashedIntent(dataDir, 'placegttorder', request);
    const sent = paper.proxy.forwardedTo(PLACE);
    const h = await restarted(dataDir, keychain);
    try {
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toEqual([]);
      await h.clock.advance(6_000);
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toMatchObject([{ journalId: id, found: false }]);
      expect(h.of('orders.reconciled')[0]?.message).toMatch(/not placed/);
      expect((await entry(h, id))?.resolution).toMatchObject({ found: false });
      expect(alertsAbout(h, id)).toHaveLength(1);
    } finally {
      await h.stop();
    }
    expect(paper.proxy.forwardedTo(PLACE)).toBe(sent);
    expect((await gttBook(key)).map((g) => g.trigger_id)).toEqual([own]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a place two new GTTs could be is left unresolved, the trader told in words to check the GTT book', async () => {
    const { dataDir, keychain, key } = await firstRun();
    const request = { ...single('WIPRO'), strategy: 'OrderDesk' };
    const id = crashedIntent(dataDir, 'placegttorder', request);
    const a = await gatewayCall('placegttorder', key, request);
    const b = await gatewayCall('placegttorder', key, request);
    const h = await restarted(dataDir, keychain);
    try {
      await h.core.pollNow();
      await h.clock.advance(6_000);
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toEqual([]);
      expect((await entry(h, id))?.resolution).toBeUndefined();
      const sticky = alertsAbout(h, id).filter((x) => x.sticky);
      expect(sticky).toHaveLength(1);
      expect(sticky[0]?.body).toContain('check the GTT order book');
      expect(sticky[0]?.body).toContain(a);
      expect(sticky[0]?.body).toContain(b);
      const snap = await h.core.router.invoke('session.snapshot');
      expect(snap.ok && snap.value.unknowns).toEqual([]);
    } finally {
      await h.stop();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a modify and a cancel are settled from the GTT book: its triggers and prices, its status', async () => {
    const base = single('TCS', 2);
    const ids: string[] = [];
    const { dataDir, keychain, key } = await firstRun(async (h) => {
      for (const input of [base, single('INFY', 2)]) {
        const r = await h.core.router.invoke('gtt.place', input);
        ids.push(r.ok ? r.value.trigger_id : JSON.stringify(r.error));
      }
    });
    const [toModify = '', toCancel = ''] = ids;
    const i = paper.inst('NSE', 'TCS');
    const change = {
      ...base,
      trigger_id: toModify,
      quantity: 5,
      triggerprice_sl: paper.onTick(i, paper.ltp(i) * 0.96),
      strategy: 'OrderDesk',
    };
    const modifyId = crashedIntent(dataDir, 'modifygttorder', change);
    const cancelId = crashedIntent(dataDir, 'cancelgttorder', {
      trigger_id: toCancel,
      strategy: 'OrderDesk',
    });
    await gatewayCall('modifygttorder', key, change);
    await gatewayCall('cancelgttorder', key, { trigger_id: toCancel, strategy: 'OrderDesk' });
    const sent = [paper.proxy.forwardedTo(MODIFY), paper.proxy.forwardedTo(CANCEL)];
    const h = await restarted(dataDir, keychain);
    try {
      expect(h.of('orders.unknown')).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ journalId: modifyId, operation: 'modifygttorder', triggerId: toModify }),
          expect.objectContaining({ journalId: cancelId, operation: 'cancelgttorder', triggerId: toCancel }),
        ]),
      );
      await h.core.pollNow();
      const settled = h.of('orders.reconciled');
      expect(settled).toHaveLength(2);
      expect(settled).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ journalId: modifyId, found: true, triggerId: toModify }),
          expect.objectContaining({ journalId: cancelId, found: true, triggerId: toCancel }),
        ]),
      );
    } finally {
      await h.stop();
    }
    expect([paper.proxy.forwardedTo(MODIFY), paper.proxy.forwardedTo(CANCEL)]).toEqual(sent);
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('the same GTT again while an identical one is in doubt', () => {
  it('after a restart, 4 s on, is held with the time in words; confirmed it goes; the earlier one settles at its age', async () => {
    const { dataDir, keychain } = await firstRun();
    const input = single('HDFCBANK', 4);
    const id = crashedIntent(dataDir, 'placegttorder', { ...input, strategy: 'OrderDesk' }, 4_000);
    const h = await restarted(dataDir, keychain);
    try {
      await h.core.pollNow();
      const sent = paper.proxy.forwardedTo(PLACE);
      const held = await h.core.router.invoke('gtt.place', input);
      expect(!held.ok && held.error.kind).toBe('unresolved_duplicate');
      expect(!held.ok && held.error.message).toContain(
        'the same GTT from 09:59:56 is still being reconciled',
      );
      expect(!held.ok && held.error.message).toContain('BUY 4 HDFCBANK NSE');
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent);
      expect((await entry(h, id))?.outcome).toBe('pending');
      // Another quantity is another GTT: not held.
      const other = await h.core.router.invoke('gtt.place', { ...input, quantity: 5 });
      expect(other.ok ? 'placed' : other.error.message).toBe('placed');

      const deliberate = await h.core.router.invoke('gtt.place', { ...input, confirmDuplicate: true });
      expect(deliberate.ok ? 'placed' : deliberate.error.message).toBe('placed');
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent + 2);

      // 20 s after its intent the earlier one is adopted; the GTT just placed is this run's own.
      await h.clock.advance(17_000);
      await h.core.pollNow();
      expect(h.of('orders.unknown')).toMatchObject([{ journalId: id, operation: 'placegttorder' }]);
      await h.clock.advance(6_000);
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toMatchObject([{ journalId: id, found: false }]);
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent + 2);
    } finally {
      await h.stop();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 15_000);

  it('an unknown gtt.place of this run holds the same GTT (not an order) until the book settles it', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const input = single('AXISBANK', 2);
      paper.proxy.enqueue({ kind: 'drop' }, PLACE); // reaches the gateway, the answer is lost
      const first = await h.core.router.invoke('gtt.place', input);
      expect(!first.ok && first.error.kind).toBe('unknown_outcome');
      const sent = paper.proxy.forwardedTo(PLACE);
      const again = await h.core.router.invoke('gtt.place', input);
      expect(!again.ok && again.error.kind).toBe('unresolved_duplicate');
      expect(!again.ok && again.error.message).toContain(
        'the same GTT from 10:00:00 is still being reconciled',
      );
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent);
      // An ordinary order of the same instrument is not its twin.
      const order = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'AXISBANK',
        action: 'BUY',
        quantity: 2,
        pricetype: 'LIMIT',
        price: input.price,
        product: 'CNC',
      });
      expect(order.ok ? 'placed' : order.error.message).toBe('placed');
      await h.core.pollNow();
      const settled = h.of('orders.reconciled').find((r) => r.operation === 'placegttorder');
      expect(settled).toMatchObject({ found: true });
      const lately = await h.core.router.invoke('gtt.place', input);
      expect(!lately.ok && lately.error.message).toContain(
        `the same GTT from 10:00:00 was placed after all (GTT ${settled?.triggerId}`,
      );
      const deliberate = await h.core.router.invoke('gtt.place', { ...input, confirmDuplicate: true });
      expect(deliberate.ok ? 'placed' : deliberate.error.message).toBe('placed');
    } finally {
      await h.stop();
    }
  });
});
