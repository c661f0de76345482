// Unknown outcomes read back from the journal (a restart): which entries come back and how, and the
// watcher writing each resolution before reporting it, once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../src-main/contract/index.js';
import { createJournal, type Journal } from '../../../src-main/core/journal/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import {
  createWatcher,
  istDayStart,
  journalResolution,
  openSeenStore,
  restoreUnknowns,
  toCheck,
  type UnknownIntent,
  type WatcherClient,
} from '../../../src-main/core/watcher/index.js';
import { ManualClock, fail, ok } from '../../../src-main/gateway/index.js';

const T0 = Date.parse('2026-11-20T10:00:00+05:30');
let dir: string;
let now: number;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durable-'));
  now = T0;
  journal = createJournal({ dbPath: join(dir, 'journal.db'), clock: { now: () => now } });
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const ORDER = {
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 5,
  pricetype: 'MARKET',
  product: 'MIS',
  price: 0,
};

function unknown(operation: string, request: object, intent?: UnknownIntent, known: string[] = []) {
  const { id } = journal.recordIntent({ profileId: 'paper', operation, request });
  journal.recordOutcome(id, { outcome: 'unknown', error: { kind: 'unknown_outcome', message: 'timed out' } });
  if (intent) journal.recordCheck(id, toCheck(intent, new Set(known)));
  return id;
}

describe('istDayStart', () => {
  it('is midnight IST of the same day', () => {
    expect(istDayStart(T0)).toBe(Date.parse('2026-11-20T00:00:00+05:30'));
    expect(istDayStart(Date.parse('2026-11-20T23:59:59+05:30'))).toBe(
      Date.parse('2026-11-20T00:00:00+05:30'),
    );
  });
});

describe('restoreUnknowns', () => {
  it("brings back today's unresolved unknown outcomes with their check, oldest first", () => {
    now = Date.parse('2026-11-19T15:00:00+05:30');
    unknown('placeorder', ORDER, { operation: 'placeorder', order: ORDER }); // yesterday's book is gone
    now = T0;
    const placed = unknown('placeorder', ORDER, { operation: 'placeorder', order: ORDER }, ['1', '2']);
    now += 10;
    const settled = unknown('cancelorder', { orderid: '9' }, { operation: 'cancelorder', orderid: '9' });
    journal.recordResolution(settled, { found: true, orderid: '9', message: 'order 9 is cancelled' });
    const restored = restoreUnknowns(journal, 'paper', T0 + 60_000);
    expect(restored.unsettleable).toEqual([]);
    expect(restored.pending).toEqual([
      {
        journalId: placed,
        intent: { operation: 'placeorder', order: ORDER },
        since: T0,
        known: new Set(['1', '2']),
        polls: 0,
      },
    ]);
    expect(restoreUnknowns(journal, 'paper', T0 + 60_000, new Set([placed])).pending).toEqual([]);
    expect(restoreUnknowns(journal, 'live-1', T0 + 60_000).pending).toEqual([]);
  });

  it('settles a modify or cancel from its request alone, never a placed order', () => {
    const cancel = unknown('cancelorder', { orderid: '7', strategy: 'Desk' });
    const modify = unknown('modifyorder', { orderid: '8', quantity: 3, price: 101.5, trigger_price: 0 });
    const place = unknown('placeorder', ORDER);
    const basket = unknown('basketorder', { orders: [ORDER] });
    const cancelAll = unknown('cancelallorder', { strategy: 'Desk' });
    const restored = restoreUnknowns(journal, 'paper', T0);
    expect(restored.pending.map((p) => p.intent)).toEqual([
      { operation: 'cancelorder', orderid: '7' },
      { operation: 'modifyorder', orderid: '8', changes: { quantity: 3, price: 101.5, trigger_price: 0 } },
    ]);
    expect(restored.pending.map((p) => p.journalId)).toEqual([cancel, modify]);
    expect(restored.unsettleable.map((e) => e.id)).toEqual([place, basket, cancelAll]);
  });

  it('brings back split, basket, cancel-all and close-position outcomes with their checks', () => {
    const intents: UnknownIntent[] = [
      { operation: 'splitorder', strategy: 'Desk', orders: [ORDER, { ...ORDER, quantity: 2 }] },
      { operation: 'basketorder', strategy: 'Desk', orders: [ORDER] },
      { operation: 'cancelallorder', strategy: 'Desk', orderids: ['4', '5'] },
      { operation: 'closeposition', strategy: 'Desk' },
    ];
    for (const intent of intents) {
      unknown(intent.operation, { strategy: 'Desk' }, intent, ['1']);
      now += 1;
    }
    const restored = restoreUnknowns(journal, 'paper', now);
    expect(restored.unsettleable).toEqual([]);
    expect(restored.pending.map((p) => p.intent)).toEqual(intents);
    expect(restored.pending.every((p) => p.known.has('1'))).toBe(true);
  });

  it('never dates an outcome after now (a clock set back)', () => {
    now = T0 + 60_000;
    unknown('cancelorder', { orderid: '7' });
    expect(restoreUnknowns(journal, 'paper', T0).pending[0]?.since).toBe(T0);
  });
});

describe('the watcher with a journal', () => {
  function book(orders: OrderRecord[]): WatcherClient {
    const statistics = {
      total_buy_orders: 0,
      total_sell_orders: 0,
      total_completed_orders: 0,
      total_open_orders: 0,
      total_rejected_orders: 0,
    };
    return {
      orderbook: async () => ok({ status: 'success' as const, data: { orders, statistics } }),
      positionbook: async () => ok({ status: 'success' as const, data: [] }),
      funds: async () => fail({ kind: 'network', message: 'x' }),
      tradebook: async () => ok({ status: 'success' as const, data: [] }),
      multiquotes: async () => fail({ kind: 'not_offered', message: 'x' }),
      depth: async () => fail({ kind: 'not_offered', message: 'x' }),
    };
  }

  it('writes the resolution before reporting it, and reports a settled one never again', async () => {
    const id = unknown('placeorder', ORDER, { operation: 'placeorder', order: ORDER }, ['1']);
    const orders: OrderRecord[] = [
      { ...ORDER, orderid: '1', order_status: 'complete', timestamp: '', trigger_price: 0 },
      { ...ORDER, orderid: '2', order_status: 'complete', timestamp: '', trigger_price: 0 },
    ];
    const store = openSeenStore(join(dir, 'watcher.db'));
    const run = async () => {
      const events: { name: string; payload: unknown }[] = [];
      const w = createWatcher({
        profileId: 'paper',
        client: book(orders),
        clock: new ManualClock(T0 + 1000),
        store,
        polling: () => ({ visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 }),
        emit: (name, payload) => {
          // Durable first: by the time the event goes out, the journal has it.
          if (name === 'orders.reconciled') expect(journal.get(id)?.resolution).toBeDefined();
          events.push({ name, payload });
        },
        logger: createMemoryLogger(),
        pending: restoreUnknowns(journal, 'paper', T0 + 1000).pending,
        resolved: journalResolution(journal),
      });
      await w.pollNow();
      await w.stop();
      return events.filter((e) => e.name === 'orders.reconciled').map((e) => e.payload);
    };
    expect(await run()).toMatchObject([{ journalId: id, found: true, orderid: '2' }]);
    expect(journal.get(id)?.resolution).toMatchObject({ found: true, orderid: '2' });
    expect(await run()).toEqual([]);

    // Two watchers holding the same outcome (a restore racing a hand-over): only one reports it.
    const twice = unknown('cancelorder', { orderid: '1' }, { operation: 'cancelorder', orderid: '1' });
    const pending = restoreUnknowns(journal, 'paper', T0 + 1000).pending;
    expect(pending.map((p) => p.journalId)).toEqual([twice]);
    const resolve = journalResolution(journal);
    expect(resolve({ journalId: twice, operation: 'cancelorder', found: false, message: 'm' })).toBe(true);
    expect(resolve({ journalId: twice, operation: 'cancelorder', found: false, message: 'm' })).toBe(false);
    store.close();
  });

  it('settles a restored split and journals the children in the resolution', async () => {
    const children = [
      { ...ORDER, quantity: 3 },
      { ...ORDER, quantity: 2 },
    ];
    const id = unknown(
      'splitorder',
      { strategy: 'Desk' },
      { operation: 'splitorder', strategy: 'Desk', orders: children },
      ['1'],
    );
    const row = (orderid: string, quantity: number): OrderRecord => ({
      ...ORDER,
      quantity,
      orderid,
      strategy: 'Desk',
      order_status: 'complete',
      timestamp: '',
      trigger_price: 0,
    });
    const store = openSeenStore(join(dir, 'watcher.db'));
    const events: { name: string; payload: unknown }[] = [];
    const w = createWatcher({
      profileId: 'paper',
      client: book([row('1', 3), row('2', 3), row('3', 2)]),
      clock: new ManualClock(T0 + 1000),
      store,
      polling: () => ({ visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 }),
      emit: (name, payload) => events.push({ name, payload }),
      logger: createMemoryLogger(),
      pending: restoreUnknowns(journal, 'paper', T0 + 1000).pending,
      resolved: journalResolution(journal),
    });
    await w.pollNow();
    await w.stop();
    expect(events.filter((e) => e.name === 'orders.reconciled').map((e) => e.payload)).toMatchObject([
      { journalId: id, operation: 'splitorder', found: true, orderids: ['2', '3'] },
    ]);
    expect(journal.get(id)?.resolution).toMatchObject({
      found: true,
      message: expect.stringMatching(/2, 3/),
    });
    store.close();
  });
});
