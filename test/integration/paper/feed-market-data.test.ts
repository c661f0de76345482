// The paper gateway's WebSocket feed over a real socket (127.0.0.1, port 0): subscriptions and ticks
// that agree with REST depth at the same instant. Time is a ManualClock: ticks move only when the
// test says.
import { describe, expect, it } from 'vitest';
import { type Msg } from '../../support/feed-client.js';
import { tickRound } from '../../support/paper-gateway.js';
import { isError, useFeedGateways } from './feed-fixture.js';

const { start, authed, drained } = useFeedGateways();

describe('paper feed: market data', () => {
  it('subscribes symbols × mode with an ack, then a first tick per subscription in that mode', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({
      action: 'subscribe',
      symbols: [
        { symbol: 'SBIN', exchange: 'NSE' },
        { symbol: 'infy', exchange: 'NSE' },
      ],
      mode: 'LTP',
      request_id: 'sub-1',
    });
    expect(await c.next((m) => m.type === 'subscribe')).toEqual({
      type: 'subscribe',
      status: 'success',
      subscriptions: [
        { symbol: 'SBIN', exchange: 'NSE', status: 'success', mode: 'LTP', depth: 5, broker: 'paper' },
        { symbol: 'INFY', exchange: 'NSE', status: 'success', mode: 'LTP', depth: 5, broker: 'paper' },
      ],
      message: 'Subscription processing complete',
      broker: 'paper',
      request_id: 'sub-1',
    });
    const sbin = await c.next((m) => m.type === 'market_data' && m.symbol === 'SBIN');
    const ltp = g.gateway.market.lastPrice(g.instrument('NSE', 'SBIN'));
    expect(sbin).toEqual({
      type: 'market_data',
      symbol: 'SBIN',
      exchange: 'NSE',
      mode: 1,
      data: {
        symbol: 'SBIN',
        exchange: 'NSE',
        mode: 'ltp',
        ltp,
        ltt: g.clock.now(),
        timestamp: g.clock.now(),
      },
      broker: 'paper',
    });
    c.send({ action: 'subscribe', symbol: 'RELIANCE', exchange: 'NSE', mode: 2 });
    await c.next((m) => m.type === 'subscribe');
    const quote = await c.next((m) => m.type === 'market_data' && m.symbol === 'RELIANCE');
    expect(quote.mode).toBe(2);
    expect(Object.keys(quote.data as object).sort()).toEqual(
      [
        'symbol',
        'exchange',
        'mode',
        'ltp',
        'volume',
        'last_quantity',
        'total_buy_quantity',
        'total_sell_quantity',
        'open',
        'high',
        'low',
        'close',
        'oi',
        'ltt',
        'timestamp',
      ].sort(),
    );
  });

  it('a depth stream and REST depth agree at any instant, and ticks follow the simulator', async () => {
    const g = await start();
    const c = await authed(g);
    const i = g.instrument('NSE', 'TCS');
    c.send({ action: 'subscribe', symbols: [{ symbol: 'TCS', exchange: 'NSE' }], mode: 'Depth' });
    await c.next((m) => m.type === 'subscribe');
    for (let step = 0; step < 4; step++) {
      await c.next((m) => m.type === 'market_data' && m.symbol === 'TCS');
      await drained(c);
      // The newest tick is the book of now (the clock moved through several feed ticks).
      const tick = c.messages.filter((m) => m.type === 'market_data').at(-1) as Msg;
      const rest = (await g.api('depth', g.apiKey, { symbol: 'TCS', exchange: 'NSE' })).body.data as Record<
        string,
        unknown
      >;
      const data = tick.data as { ltp: number; volume: number; depth: { buy: unknown[]; sell: unknown[] } };
      expect(tick.mode).toBe(3);
      expect(data.ltp).toBe(rest.ltp);
      expect(data.volume).toBe(rest.volume);
      expect(data.depth.buy).toEqual(rest.bids);
      expect(data.depth.sell).toEqual(rest.asks);
      if (step === 2) g.gateway.market.setPrice(i, tickRound(i, data.ltp * 1.01));
      // The next second's book differs: the feed sends it at its next tick.
      g.clock.advance(1000);
    }
  });

  it('sends nothing for an unchanged book, and unsubscribe / unsubscribe_all stop the ticks', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe', symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 3 });
    c.send({ action: 'subscribe', symbols: [{ symbol: 'INFY', exchange: 'NSE' }], mode: 1 });
    await c.next((m) => m.type === 'market_data' && m.symbol === 'INFY');
    const before = c.messages.length;
    g.clock.advance(250); // same second: the same book
    await drained(c);
    expect(c.messages.slice(before).map((m) => m.type)).toEqual(['pong']);

    c.send({
      action: 'unsubscribe',
      symbols: [{ symbol: 'SBIN', exchange: 'NSE', mode: 3 }],
      request_id: 'u1',
    });
    expect(await c.next((m) => m.type === 'unsubscribe')).toEqual({
      type: 'unsubscribe',
      status: 'success',
      message: 'Unsubscription processing complete',
      successful: [{ symbol: 'SBIN', exchange: 'NSE', status: 'success', broker: 'paper' }],
      failed: [],
      broker: 'paper',
      request_id: 'u1',
    });
    g.clock.advance(1000);
    await c.next((m) => m.type === 'market_data' && m.symbol === 'INFY');
    expect(c.messages.filter((m) => m.type === 'market_data' && m.symbol === 'SBIN')).toHaveLength(1);

    // A key never subscribed is reported unsubscribed, as the live server does (feed-recorded.test.ts).
    c.send({ action: 'unsubscribe', symbols: [{ symbol: 'WIPRO', exchange: 'NSE' }] });
    expect(await c.next((m) => m.type === 'unsubscribe')).toMatchObject({ status: 'success', failed: [] });
    c.send({ action: 'unsubscribe_all' });
    expect(await c.next((m) => m.type === 'unsubscribe')).toMatchObject({
      status: 'success',
      successful: [{ symbol: 'INFY', exchange: 'NSE', status: 'success', broker: 'paper' }],
    });
    const after = c.messages.length;
    g.clock.advance(2000);
    await drained(c);
    expect(c.messages.slice(after).map((m) => m.type)).toEqual(['pong']);
  });

  it('arms its tick only while a topic has a subscriber: one that follows only orders is not woken by it', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe_orders' });
    await c.next((m) => m.type === 'subscribe_orders');
    // The connection's first tick finds no topic and does not arm another; the heartbeat stays.
    g.clock.advance(250);
    const withoutTick = g.clock.pending;
    g.clock.advance(1000);
    expect(g.clock.pending).toBe(withoutTick);

    const i = g.instrument('NSE', 'SBIN');
    c.send({ action: 'subscribe', symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 1 });
    await c.next((m) => m.type === 'market_data' && m.symbol === 'SBIN');
    expect(g.clock.pending).toBe(withoutTick + 1);
    // Ticks flow again: a price move goes out at the next tick.
    const ticks = () => c.messages.filter((m) => m.type === 'market_data').length;
    const before = ticks();
    const ltp = (c.messages.filter((m) => m.type === 'market_data').at(-1)!.data as { ltp: number }).ltp;
    g.gateway.market.setPrice(i, tickRound(i, ltp * 1.01));
    g.clock.advance(250);
    await c.next((m) => m.type === 'market_data' && m.symbol === 'SBIN');
    expect(ticks()).toBe(before + 1);

    c.send({ action: 'unsubscribe_all' });
    await c.next((m) => m.type === 'unsubscribe');
    g.clock.advance(250);
    expect(g.clock.pending).toBe(withoutTick);
  });

  it('names INVALID_MODE and INVALID_PARAMETERS, and answers partial for an unknown symbol', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe', symbol: 'SBIN', exchange: 'NSE', mode: 'Full' });
    expect(await c.next(isError('INVALID_MODE'))).toMatchObject({ message: expect.stringContaining('Full') });
    c.send({ action: 'subscribe', symbols: [], mode: 1 });
    expect(await c.next(isError('INVALID_PARAMETERS'))).toMatchObject({
      message: 'At least one symbol must be specified',
    });
    c.send({ action: 'unsubscribe' });
    expect(await c.next(isError('INVALID_PARAMETERS'))).toMatchObject({
      message: 'Either symbols or unsubscribe_all is required',
    });
    c.send({
      action: 'subscribe',
      symbols: [
        { symbol: 'SBIN', exchange: 'NSE' },
        { symbol: 'NOSUCH', exchange: 'NSE' },
      ],
      mode: 'quote',
    });
    expect(await c.next((m) => m.type === 'subscribe')).toMatchObject({
      status: 'partial',
      subscriptions: [
        { symbol: 'SBIN', status: 'success', mode: 'Quote' },
        { symbol: 'NOSUCH', status: 'error', message: 'Symbol NOSUCH not found in exchange NSE' },
      ],
    });
  });
});
