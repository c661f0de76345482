// The paper gateway's WebSocket feed over a real socket (127.0.0.1, port 0): order_update for each
// order transition, in order. Time is a ManualClock: the engine's matching moves only when the test
// says.
import { describe, expect, it } from 'vitest';
import { type Msg } from '../../support/feed-client.js';
import { tickRound } from '../../support/paper-gateway.js';
import { useFeedGateways } from './feed-fixture.js';

const { start, authed, drained } = useFeedGateways();

describe('paper feed: order updates', () => {
  const statusOf = (m: Msg) => `${String(m.order_status)}:${String(m.filled_quantity)}`;

  it("streams every transition of the account's orders, in order, once committed", async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe_orders', request_id: 'o1' });
    expect(await c.next((m) => m.type === 'subscribe_orders')).toEqual({
      type: 'subscribe_orders',
      status: 'success',
      message: 'Subscribed to order updates',
      request_id: 'o1',
    });
    const other = await authed(g, g.newKey());
    other.send({ action: 'subscribe_orders' });
    await other.next((m) => m.type === 'subscribe_orders');

    const place = async (fields: Record<string, unknown>) => {
      const r = await g.api('placeorder', g.apiKey, {
        strategy: 'feed',
        exchange: 'NSE',
        action: 'BUY',
        product: 'MIS',
        pricetype: 'MARKET',
        ...fields,
      });
      return r.body.orderid as string;
    };
    const updates = (id: string) => c.messages.filter((m) => m.type === 'order_update' && m.orderid === id);

    // open → cancelled
    const i = g.instrument('NSE', 'ICICIBANK');
    const p = g.gateway.market.lastPrice(i);
    const resting = await place({
      symbol: 'ICICIBANK',
      quantity: 5,
      pricetype: 'LIMIT',
      price: tickRound(i, p * 0.95),
    });
    const opened = await c.next((m) => m.type === 'order_update' && m.orderid === resting);
    expect(opened).toMatchObject({
      mode: 'analyze',
      broker: 'paper',
      symbol: 'ICICIBANK',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 5,
      pricetype: 'LIMIT',
      product: 'MIS',
      order_status: 'open',
      filled_quantity: 0,
      pending_quantity: 5,
      average_price: 0,
      rejection_reason: '',
    });
    await g.api('cancelorder', g.apiKey, { strategy: 'feed', orderid: resting });
    await c.next((m) => m.type === 'order_update' && m.orderid === resting && m.order_status === 'cancelled');

    // trigger pending → complete
    const r = g.instrument('NSE', 'RELIANCE');
    const rp = g.gateway.market.lastPrice(r);
    const stop = await place({
      symbol: 'RELIANCE',
      quantity: 4,
      pricetype: 'SL-M',
      trigger_price: tickRound(r, rp * 1.02),
    });
    await c.next((m) => m.orderid === stop && m.order_status === 'trigger pending');
    g.gateway.market.setPrice(r, tickRound(r, rp * 1.03));
    g.clock.advance(1000);
    g.engine.tick();
    await c.next((m) => m.orderid === stop && m.order_status === 'complete');
    expect(updates(stop).map(statusOf)).toEqual(['trigger pending:0', 'complete:4']);

    // partial → complete (a MARKET order larger than the book walks it over several seconds)
    const h = g.instrument('NSE', 'HDFCBANK');
    const shown = g.gateway.market.book(h).asks.reduce((s, l) => s + l.quantity, 0);
    const big = await place({ symbol: 'HDFCBANK', quantity: shown * 2 });
    const first = await c.next((m) => m.orderid === big);
    expect(first).toMatchObject({ order_status: 'open', filled_quantity: shown, pending_quantity: shown });
    for (let n = 0; n < 20 && updates(big).at(-1)?.order_status !== 'complete'; n++) {
      g.clock.advance(1000);
      g.engine.tick();
      await new Promise((res) => setTimeout(res, 5));
    }
    await c.next((m) => m.orderid === big && m.order_status === 'complete');
    const fills = updates(big).map((m) => m.filled_quantity as number);
    expect(fills).toEqual([...fills].sort((a, b) => a - b));
    expect(fills.at(-1)).toBe(shown * 2);

    // rejected with its reason (the account cannot pay for it)
    const huge = await place({ symbol: 'RELIANCE', quantity: 20_000, product: 'CNC' });
    expect(huge).toMatch(/^\d+$/);
    const rejected = await c.next((m) => m.orderid === huge);
    expect(rejected).toMatchObject({
      order_status: 'rejected',
      rejection_reason: expect.stringMatching(/\S/),
    });

    // The other account saw none of it.
    await drained(other);
    expect(other.messages.filter((m) => m.type === 'order_update')).toEqual([]);

    // unsubscribe_orders stops them.
    c.send({ action: 'unsubscribe_orders' });
    await c.next((m) => m.type === 'unsubscribe_orders');
    const n = c.messages.length;
    await place({ symbol: 'SBIN', quantity: 1 });
    await drained(c);
    expect(c.messages.slice(n).filter((m) => m.type === 'order_update')).toEqual([]);
  });

  it('never announces what a rolled-back transaction wrote', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe_orders' });
    await c.next((m) => m.type === 'subscribe_orders');
    const { accountIdOf } = await import('../../../src-main/paper/auth/key-store.js');
    const account = accountIdOf(g.apiKey);
    const input = {
      strategy: 'feed',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY' as const,
      quantity: 1,
      pricetype: 'MARKET' as const,
      product: 'MIS' as const,
      price: 0,
      trigger_price: 0,
      disclosed_quantity: 0,
    };
    expect(() =>
      g.engine.transaction(() => {
        g.engine.placeOrder(account, input);
        throw new Error('undo');
      }),
    ).toThrow('undo');
    const kept = g.engine.placeOrder(account, { ...input, quantity: 2 });
    expect(kept.ok).toBe(true);
    const update = await c.next((m) => m.type === 'order_update');
    expect(update.quantity).toBe(2);
    await drained(c);
    expect(c.messages.filter((m) => m.type === 'order_update')).toHaveLength(1);
  });
});
