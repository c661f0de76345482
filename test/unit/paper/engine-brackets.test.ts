// What the paper engine gives a bracket (issue 25) to work against: SL and SL-M stops that trigger
// at their trigger, a gap through a stop filled at the next price (not the trigger), a resting
// LIMIT target filled in parts (limitFills 'depth'), and a scripted price path (setPricePath) that
// reaches both sides of a bracket in one session. The engine is driven directly on a ManualClock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LimitFills, OrderInput } from '../../../src-main/paper/engine/engine.js';
import { createTradingEngine } from '../../../src-main/paper/engine/trading-engine.js';
import type { InstrumentMaster } from '../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../src-main/paper/instruments/master.js';
import { ManualClock, createMarket } from '../../../src-main/paper/market/index.js';

const START = Date.parse('2026-11-20T10:00:00+05:30');
let master: InstrumentMaster;
const dirs: string[] = [];
const closers: (() => void)[] = [];

beforeAll(() => {
  master = buildMaster({ seed: 3, today: '2026-11-20' });
});
afterEach(() => {
  for (const c of closers.splice(0)) c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setUp(symbol: string, limitFills?: LimitFills) {
  const dir = mkdtempSync(join(tmpdir(), 'engine-brackets-'));
  dirs.push(dir);
  const clock = new ManualClock(START);
  const market = createMarket({ underlyings: master.underlyings, clock, seed: 3 });
  const engine = createTradingEngine({
    dataDir: dir,
    master,
    market,
    clock,
    capital: 1e9,
    ...(limitFills ? { limitFills } : {}),
  });
  closers.push(() => engine.close());
  const inst = master.get('NSE', symbol)!;
  const round = (p: number) => Number((Math.round(p / inst.tickSize) * inst.tickSize).toFixed(4));
  const place = (o: Partial<OrderInput>): string => {
    const r = engine.placeOrder('a0', {
      strategy: 'bracket',
      exchange: 'NSE',
      symbol,
      action: 'BUY',
      quantity: 1,
      pricetype: 'MARKET',
      product: 'MIS',
      price: 0,
      trigger_price: 0,
      disclosed_quantity: 0,
      ...o,
    });
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.value.orderid;
  };
  const order = (id: string) => engine.orders('a0').find((o) => o.orderid === id)!;
  /** One second later, at `price`: the engine matches there. */
  const moveTo = (price: number) => {
    clock.advance(1000);
    market.setPrice(inst, round(price));
    engine.tick();
  };
  const ltp = () => market.lastPrice(inst);
  return { engine, market, clock, inst, round, place, order, moveTo, ltp };
}

describe('stops on the paper engine', () => {
  it('an SL-M stop waits at its trigger, triggers when the price reaches it and fills at the market', () => {
    const { place, order, moveTo, ltp, round, market, inst } = setUp('SBIN');
    place({ quantity: 10 });
    const p = ltp();
    const trigger = round(p - 5);
    const stop = place({ action: 'SELL', quantity: 10, pricetype: 'SL-M', trigger_price: trigger });
    expect(order(stop).status).toBe('trigger pending');
    moveTo(trigger + 1);
    expect(order(stop).status).toBe('trigger pending');
    moveTo(trigger);
    const bids = market.book(inst).bids;
    expect(order(stop)).toMatchObject({ status: 'complete', filled_quantity: 10 });
    // At the book's bids of that second, best first: at or below the trigger, never above it.
    expect(order(stop).average_price).toBeLessThanOrEqual(trigger);
    expect(order(stop).average_price).toBeGreaterThanOrEqual(bids[bids.length - 1]!.price);
  });

  it('an SL stop triggers into a LIMIT: fills down to its limit, not past it', () => {
    const { place, order, moveTo, ltp, round } = setUp('SBIN');
    place({ quantity: 10 });
    const p = ltp();
    const trigger = round(p - 5);
    const limit = round(p - 5.5);
    const stop = place({
      action: 'SELL',
      quantity: 10,
      pricetype: 'SL',
      price: limit,
      trigger_price: trigger,
    });
    expect(order(stop).status).toBe('trigger pending');
    moveTo(trigger);
    expect(order(stop)).toMatchObject({ status: 'complete', filled_quantity: 10 });
    expect(order(stop).average_price).toBeGreaterThanOrEqual(limit);
  });

  it('a gap through an SL-M stop fills at the next price, not at the trigger', () => {
    const { place, order, moveTo, ltp, round, market, inst } = setUp('INFY');
    place({ quantity: 5 });
    const p = ltp();
    const trigger = round(p - 10);
    const stop = place({ action: 'SELL', quantity: 5, pricetype: 'SL-M', trigger_price: trigger });
    // From above the stop to 30 points under it in one second: no price in between traded.
    moveTo(trigger - 30);
    const bestBid = market.book(inst).bids[0]!.price;
    expect(order(stop)).toMatchObject({ status: 'complete', filled_quantity: 5 });
    expect(order(stop).average_price).toBeLessThanOrEqual(bestBid);
    expect(order(stop).average_price).toBeLessThan(trigger - 25);
  });

  it('a gap through an SL stop past its limit leaves it open, unfilled, until the price comes back', () => {
    const { place, order, moveTo, ltp, round } = setUp('INFY');
    place({ quantity: 5 });
    const p = ltp();
    const trigger = round(p - 10);
    const limit = round(p - 11);
    const stop = place({
      action: 'SELL',
      quantity: 5,
      pricetype: 'SL',
      price: limit,
      trigger_price: trigger,
    });
    moveTo(trigger - 30);
    expect(order(stop)).toMatchObject({ status: 'open', filled_quantity: 0 });
    moveTo(limit + 1);
    expect(order(stop)).toMatchObject({ status: 'complete', filled_quantity: 5, average_price: limit });
  });
});

describe('a resting LIMIT target', () => {
  it('fills in full at its limit once reached (the default, as the sandbox)', () => {
    const { place, order, moveTo, ltp, round } = setUp('HDFCBANK');
    place({ quantity: 2000 });
    const target = round(ltp() + 8);
    const id = place({ action: 'SELL', quantity: 2000, pricetype: 'LIMIT', price: target });
    expect(order(id).status).toBe('open');
    moveTo(target);
    expect(order(id)).toMatchObject({ status: 'complete', filled_quantity: 2000, average_price: target });
  });

  it("with limitFills 'depth' fills in parts: each second what the best bid shows, at its limit", () => {
    const { place, order, moveTo, ltp, round, market, inst, engine } = setUp('HDFCBANK', 'depth');
    place({ quantity: 2000 });
    const target = round(ltp() + 8);
    const id = place({ action: 'SELL', quantity: 2000, pricetype: 'LIMIT', price: target });
    moveTo(target - 1);
    expect(order(id)).toMatchObject({ status: 'open', filled_quantity: 0 });
    moveTo(target);
    const first = market.book(inst).bids[0]!.quantity;
    expect(first).toBeLessThan(2000);
    expect(order(id)).toMatchObject({ status: 'open', filled_quantity: first, average_price: target });
    // The same second again: that level is taken.
    engine.tick();
    expect(order(id).filled_quantity).toBe(first);
    let seconds = 1;
    for (; seconds < 60 && order(id).status === 'open'; seconds++) moveTo(target + 1);
    expect(seconds).toBeGreaterThan(1);
    expect(order(id)).toMatchObject({ status: 'complete', filled_quantity: 2000, average_price: target });
    // The price fell back below it: a part-filled target waits, its filled part kept.
    const other = place({ action: 'SELL', quantity: 2000, pricetype: 'LIMIT', price: round(target + 20) });
    moveTo(target + 20);
    const part = order(other).filled_quantity;
    expect(part).toBeGreaterThan(0);
    moveTo(target);
    engine.tick();
    expect(order(other)).toMatchObject({ status: 'open', filled_quantity: part });
  });
});

describe('a price path through both sides of a bracket', () => {
  it('setPricePath: the scripted prices at their seconds, the path wandering in between', () => {
    const { market, inst, clock, round, ltp } = setUp('RELIANCE');
    const p = ltp();
    const path = [
      { atMs: START + 5_000, price: round(p + 12) },
      { atMs: START + 65_000, price: round(p - 12) },
    ];
    market.setPricePath(inst, path);
    expect(market.lastPrice(inst)).toBe(p);
    clock.set(START + 5_000);
    expect(market.lastPrice(inst)).toBe(path[0]!.price);
    clock.set(START + 30_000);
    expect(Math.abs(market.lastPrice(inst) - path[0]!.price)).toBeLessThan(p * 0.01);
    clock.set(START + 65_000);
    expect(market.lastPrice(inst)).toBe(path[1]!.price);
    // The session's range holds both.
    expect(market.quote(inst).high).toBeGreaterThanOrEqual(path[0]!.price);
    expect(market.quote(inst).low).toBeLessThanOrEqual(path[1]!.price);
    expect(() => market.setPricePath(inst, [{ atMs: START, price: p }])).toThrow(RangeError);
  });

  it('reaches the target and then the stop in one session: each leg fills when its side is reached', () => {
    const { engine, market, inst, clock, place, order, round, ltp } = setUp('RELIANCE');
    const entry = place({ quantity: 4 });
    const fill = order(entry).average_price;
    const stop = place({ action: 'SELL', quantity: 4, pricetype: 'SL-M', trigger_price: round(fill - 10) });
    const target = place({ action: 'SELL', quantity: 4, pricetype: 'LIMIT', price: round(fill + 10) });
    const p = ltp();
    market.setPricePath(inst, [
      { atMs: START + 2_000, price: round(fill + 11) },
      { atMs: START + 3_000, price: round(p) },
      { atMs: START + 4_000, price: round(fill - 11) },
    ]);
    clock.set(START + 2_000);
    engine.tick();
    expect(order(target)).toMatchObject({ status: 'complete', average_price: round(fill + 10) });
    expect(order(stop).status).toBe('trigger pending');
    clock.set(START + 3_000);
    engine.tick();
    expect(order(stop).status).toBe('trigger pending');
    clock.set(START + 4_000);
    engine.tick();
    // With nothing cancelling it (the keeper's job), the stop fills too: the path reached both sides.
    expect(order(stop)).toMatchObject({ status: 'complete', filled_quantity: 4 });
    expect(order(stop).average_price).toBeLessThanOrEqual(round(fill - 10));
  });
});
