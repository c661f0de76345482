// GTT orders over real HTTP against the embedded paper gateway (ManualClock), in the live server's
// recorded shapes (test/fixtures/openalgo/live-gtt): triggering by the simulator's price, and on
// the system clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PaperOrder } from '../../../src-main/paper/engine/engine.js';
import { engineExtension } from '../../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../../src-main/paper/engine/trading-engine.js';
import { startPaperGateway } from '../../../src-main/paper/gateway.js';
import { systemClock } from '../../../src-main/paper/market/index.js';
import { tickRound } from '../../support/paper-gateway.js';
import {
  accepted,
  book,
  expectInvariants,
  funds,
  future,
  ltp,
  movePrice,
  single,
  useGttGateway,
} from './gtt-fixture.js';

const { gw, oco } = useGttGateway();

describe('triggering by price', () => {
  it('fires a SINGLE once the price falls to its trigger: an order in the book and the feed', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'ITC');
    const trigger = tickRound(i, ltp(gw, i) * 0.97);
    const before = await funds(gw, key);
    const id = accepted(await gw.api('placegttorder', key, single(i, trigger, { quantity: 3 })));
    const seen: PaperOrder[] = [];
    const stop = gw.engine.onOrderChange((o) => seen.push(o));
    try {
      movePrice(gw, i, trigger + i.tickSize);
      expect((await book(gw, key)).map((r) => r.trigger_id)).toEqual([id]);

      movePrice(gw, i, trigger - 2 * i.tickSize);
      expect(await book(gw, key)).toEqual([]);
      const [row] = await book(gw, key, 'all');
      expect(row).toMatchObject({ trigger_id: id, status: 'triggered', margin_blocked: 0 });
      const orderid = row?.legs[0]?.triggered_order_id;
      expect(orderid).toMatch(/^\d+$/);

      const orders = (await gw.api('orderbook', key)).body.data as { orders: Record<string, unknown>[] };
      expect(orders.orders).toHaveLength(1);
      expect(orders.orders[0]).toMatchObject({
        orderid,
        action: 'BUY',
        symbol: 'ITC',
        quantity: 3,
        pricetype: 'LIMIT',
        product: 'CNC',
        strategy: 'gtt-test',
      });
      // The price is through the limit: the order filled, and the desk's feed heard of it.
      expect(orders.orders[0]?.order_status).toBe('complete');
      expect(seen.filter((o) => o.orderid === orderid).map((o) => o.status)).toContain('complete');
    } finally {
      stop();
    }
    // The GTT's reservation went; the position holds the bought value instead.
    const after = await funds(gw, key);
    expect(before.used).toBe(0);
    expect(after.used).toBeGreaterThan(0);
    expectInvariants(gw);
  });

  it('fires the target leg of an OCO when the price rises, and drops the stoploss leg', async () => {
    const key = gw.newKey();
    const i = future(gw);
    const p = ltp(gw, i);
    const sl = tickRound(i, p * 0.95);
    const tg = tickRound(i, p * 1.04);
    const id = accepted(await gw.api('placegttorder', key, oco(i, i.lotsize, sl, tg)));
    movePrice(gw, i, tg + i.tickSize);
    const [row] = await book(gw, key, 'all');
    expect(row).toMatchObject({ trigger_id: id, status: 'triggered', margin_blocked: 0 });
    expect(row?.legs[0]?.triggered_order_id).toBeNull();
    const orderid = row?.legs[1]?.triggered_order_id;
    const o = (await gw.api('orderstatus', key, { strategy: 'gtt-test', orderid })).body.data as Record<
      string,
      unknown
    >;
    expect(o).toMatchObject({ action: 'SELL', price: tickRound(i, tg * 1.01), quantity: i.lotsize });
    // The stoploss side no longer fires: one order only, however far the price then falls.
    movePrice(gw, i, sl * 0.9);
    const orders = (await gw.api('orderbook', key)).body.data as { orders: unknown[] };
    expect(orders.orders).toHaveLength(1);
    expectInvariants(gw);
  });
});

describe('on the system clock', () => {
  it('fires on its timer, with no request to the gateway', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-gtt-rt-'));
    let engine: PaperTradingEngine | undefined;
    const gateway = await startPaperGateway({
      dataDir,
      clock: systemClock,
      extensions: [engineExtension({ tickMs: 20, onEngine: (e) => (engine = e) })],
    });
    try {
      const key = gateway.apiKey ?? '';
      const i = gateway.master.get('NSE', 'SBIN');
      if (!i || !engine) throw new Error('no SBIN or no engine');
      const p = gateway.market.lastPrice(i);
      const trigger = tickRound(i, p * 0.8);
      const r = await fetch(`${gateway.url}/api/v1/placegttorder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apikey: key, ...single(i, trigger) }),
      });
      expect(r.status).toBe(200);
      gateway.market.setPrice(i, tickRound(i, p * 0.7));
      const e = engine;
      const placed = await new Promise<PaperOrder | undefined>((resolve) => {
        const stop = e.onOrderChange((o) => {
          stop();
          resolve(o);
        });
        setTimeout(() => resolve(undefined), 3000);
      });
      expect(placed).toMatchObject({ symbol: 'SBIN', action: 'BUY', price: trigger });
    } finally {
      await gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
