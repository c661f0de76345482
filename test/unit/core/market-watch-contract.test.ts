// What the renderer sends and gets for market subscriptions: the watch input's rules, and ticks built
// from gateway answers (change in exact decimals, five depth levels a side).
import { describe, expect, it } from 'vitest';
import {
  CHANNELS,
  EVENTS,
  MarketWatchInput,
  type DepthData,
  type QuoteData,
} from '../../../src-main/contract/index.js';
import { dayChange, decimalDifference, depthTick, quoteTick } from '../../../src-main/core/market/ticks.js';

describe('market.watch input', () => {
  const parse = (input: unknown) => CHANNELS['market.watch'].input.safeParse(input);
  const sbin = { symbol: 'SBIN', exchange: 'NSE' };

  it('takes 1 to 500 instruments in one mode, focus for one depth instrument only', () => {
    expect(parse({ symbols: [sbin], mode: 'quote' }).success).toBe(true);
    expect(parse({ symbols: [sbin], mode: 'depth', focus: true }).success).toBe(true);
    expect(parse({ symbols: [], mode: 'ltp' }).success).toBe(false);
    expect(parse({ symbols: Array.from({ length: 501 }, () => sbin), mode: 'ltp' }).success).toBe(false);
    expect(parse({ symbols: [sbin], mode: 'ticks' }).success).toBe(false);
    expect(parse({ symbols: [{ symbol: 'SBIN', exchange: 'XYZ' }], mode: 'ltp' }).success).toBe(false);
    const quoteFocus = parse({ symbols: [sbin], mode: 'quote', focus: true });
    expect(quoteFocus.error?.issues[0]?.message).toBe('focus applies to depth watches only');
    const twoFocus = parse({
      symbols: [sbin, { symbol: 'INFY', exchange: 'NSE' }],
      mode: 'depth',
      focus: true,
    });
    expect(twoFocus.error?.issues[0]?.message).toBe('a focused depth watch names exactly one symbol');
  });

  it('never accepts a key', () => {
    expect(MarketWatchInput.safeParse({ symbols: [sbin], mode: 'ltp', apikey: 'k' }).success).toBe(false);
    expect(CHANNELS['market.unwatch'].input.safeParse({ id: 'mw-1', apikey: 'k' }).success).toBe(false);
  });
});

describe('ticks', () => {
  const at = { profileId: 'paper', time: 1 };
  const q: QuoteData = {
    ltp: 100.05,
    prev_close: 99.9,
    open: 99.5,
    high: 101,
    low: 99,
    bid: 100,
    ask: 100.1,
    volume: 1234,
  };

  it('works out the day change in decimal', () => {
    expect(100.05 - 99.9).not.toBe(0.15);
    expect(decimalDifference(100.05, 99.9)).toBe(0.15);
    expect(dayChange(100.05, 99.9)).toEqual({ change: 0.15, changePercent: 0.15 });
    expect(dayChange(95, 100)).toEqual({ change: -5, changePercent: -5 });
    expect(dayChange(12.5, 0)).toEqual({ change: 12.5, changePercent: null });
    expect(dayChange(Number.NaN, 1)).toEqual({ change: 0, changePercent: null });
  });

  it('builds quote and depth events that satisfy the contract', () => {
    const quote = quoteTick(at, { symbol: 'SBIN', exchange: 'NSE' }, q);
    expect(quote).toMatchObject({ ltp: 100.05, change: 0.15, bid: 100, ask: 100.1, prevClose: 99.9, oi: 0 });
    // The bus stamps `seq` on emit; the payload the scheduler builds is everything else.
    expect(EVENTS['market.quote'].parse({ ...quote, seq: 1 })).toEqual({ ...quote, seq: 1 });
    const lv = (price: number) => ({ price, quantity: 5 });
    const d: DepthData = {
      ...q,
      ltq: 3,
      oi: 7,
      totalbuyqty: 40,
      totalsellqty: 50,
      bids: [100, 99.95, 99.9, 99.85, 99.8, 99.75].map(lv),
      asks: [100.1, 100.15, 100.2, 100.25, 100.3, 100.35].map(lv),
    };
    const depth = depthTick(at, { symbol: 'SBIN', exchange: 'NSE' }, d);
    expect(depth.bids).toHaveLength(5);
    expect(depth.asks[0]).toEqual({ price: 100.1, quantity: 5 });
    expect(depth).toMatchObject({ totalBuyQty: 40, totalSellQty: 50, ltq: 3, oi: 7, change: 0.15 });
    expect(EVENTS['market.depth'].parse({ ...depth, seq: 2 })).toEqual({ ...depth, seq: 2 });
  });
});
