// The watcher over a scripted client (baseline, exactly once, outage, restart from the store), and
// the LTP source.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../src-main/contract/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { createWatcher, openSeenStore, type WatcherClient } from '../../../src-main/core/watcher/index.js';
import { createLtpSource } from '../../../src-main/core/watcher/ltp-source.js';
import { ManualClock, fail, ok } from '../../../src-main/gateway/index.js';
import { row } from './watcher-fixture.js';

describe('createWatcher over a scripted client', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function scripted() {
    const state = { orders: [] as OrderRecord[], down: false, calls: [] as string[] };
    const statistics = {
      total_buy_orders: 0,
      total_sell_orders: 0,
      total_completed_orders: 0,
      total_open_orders: 0,
      total_rejected_orders: 0,
    };
    const client: WatcherClient = {
      orderbook: async () => {
        state.calls.push('orderbook');
        return state.down
          ? fail({ kind: 'network', message: 'cannot reach the gateway' })
          : ok({ status: 'success' as const, data: { orders: state.orders, statistics } });
      },
      positionbook: async () => (
        state.calls.push('positionbook'),
        ok({ status: 'success' as const, data: [] })
      ),
      funds: async () => fail({ kind: 'network', message: 'x' }),
      tradebook: async () => ok({ status: 'success' as const, data: [] }),
      multiquotes: async () => fail({ kind: 'not_offered', message: 'x' }),
      depth: async () => fail({ kind: 'not_offered', message: 'x' }),
    };
    return { state, client };
  }

  it('polls on its timer, faster while orders are open, and persists what it reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-'));
    dirs.push(dir);
    const clock = new ManualClock(0);
    const { state, client } = scripted();
    const events: string[] = [];
    const stores: ReturnType<typeof openSeenStore>[] = [];
    const make = () =>
      createWatcher({
        profileId: 'paper',
        client,
        clock,
        store: stores[stores.push(openSeenStore(join(dir, 'watcher.db'))) - 1]!,
        polling: () => ({ visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 }),
        emit: (name) => events.push(name),
        logger: createMemoryLogger(),
      });
    const w = make();
    state.orders = [row({ order_status: 'complete', filled_quantity: 1500 })];
    w.start();
    await clock.advance(10_000);
    expect(state.calls.filter((c) => c === 'orderbook')).toHaveLength(1);
    expect(events.filter((e) => e.startsWith('orders.'))).toEqual([]); // baseline
    state.orders.push(row({ orderid: '2' }));
    await clock.advance(10_000);
    expect(events.filter((e) => e.startsWith('orders.'))).toEqual(['orders.accepted']);
    expect(w.interval()).toBe(1000);
    state.down = true;
    await clock.advance(1000);
    expect(events.at(-1)).toBe('session.connection');
    expect(w.connection()).toBe('disconnected');
    expect(w.interval()).toBe(2000);
    await w.stop();

    // A new watcher on the same store: nothing old is news, the change made meanwhile is.
    state.down = false;
    state.orders = [
      row({ order_status: 'complete', filled_quantity: 1500 }),
      row({ orderid: '2', order_status: 'complete', filled_quantity: 1500 }),
    ];
    events.length = 0;
    const again = make();
    await again.pollNow();
    expect(events.filter((e) => e.startsWith('orders.'))).toEqual(['orders.filled']);
    await again.stop();
    for (const s of stores) s.close();
  });
});

describe('createLtpSource', () => {
  const quote = (ltp: number) => ({
    ask: ltp,
    bid: ltp,
    high: ltp,
    low: ltp,
    ltp,
    open: ltp,
    prev_close: ltp,
    volume: 1,
  });
  const depthAnswer = (ltp: number) => ({
    status: 'success' as const,
    data: {
      asks: [],
      bids: [],
      totalbuyqty: 0,
      totalsellqty: 0,
      high: 0,
      low: 0,
      ltp,
      ltq: 0,
      open: 0,
      prev_close: 0,
      volume: 0,
      oi: 0,
    },
  });
  const list = ['A', 'B', 'C', 'D', 'E'].map((symbol) => ({ symbol, exchange: 'NSE' }));

  it('uses one multiquotes call where offered', async () => {
    const calls: string[] = [];
    const src = createLtpSource({
      multiquotes: async (input) => {
        calls.push('multiquotes');
        return ok({
          status: 'success' as const,
          results: input.symbols.map((s, i) => ({
            symbol: s.symbol,
            exchange: s.exchange,
            data: quote(100 + i),
          })),
        });
      },
      depth: async () => (calls.push('depth'), fail({ kind: 'network', message: 'x' })),
    });
    const ltps = await src.refresh(list);
    expect(calls).toEqual(['multiquotes']);
    expect(ltps.get('NSE:E')).toBe(104);
  });

  it('falls back to depth, a few symbols per round in rotation, once multiquotes is not offered', async () => {
    const calls: string[] = [];
    const src = createLtpSource(
      {
        multiquotes: async () => (
          calls.push('multiquotes'),
          fail({ kind: 'not_offered', message: 'x', httpStatus: 404 })
        ),
        depth: async (input) => (calls.push(input.symbol), ok(depthAnswer(input.symbol.charCodeAt(0)))),
      },
      { depthPerRound: 3 },
    );
    expect([...(await src.refresh(list)).keys()]).toEqual(['NSE:A', 'NSE:B', 'NSE:C']);
    expect((await src.refresh(list)).size).toBe(5);
    expect(calls).toEqual(['multiquotes', 'A', 'B', 'C', 'D', 'E', 'A']);
  });
});
