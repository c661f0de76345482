// The paper engine's real-time ticker runs only while an order rests: the idle app (whose process
// holds the embedded gateway) is not woken four times a second with nothing to match, and a resting
// order still fills from the ticker when the price reaches it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderInput } from '../../../src-main/paper/engine/engine.js';
import { createTradingEngine } from '../../../src-main/paper/engine/trading-engine.js';
import type { InstrumentMaster } from '../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../src-main/paper/instruments/master.js';
import { ManualClock, createMarket } from '../../../src-main/paper/market/index.js';

const START = Date.parse('2026-11-20T10:00:00+05:30');
let master: InstrumentMaster;
const dirs: string[] = [];

beforeAll(() => {
  master = buildMaster({ seed: 3, today: '2026-11-20' });
});
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setUp() {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const dir = mkdtempSync(join(tmpdir(), 'engine-ticker-'));
  dirs.push(dir);
  const clock = new ManualClock(START);
  const market = createMarket({ underlyings: master.underlyings, clock, seed: 3 });
  const engine = createTradingEngine({ dataDir: dir, master, market, clock, capital: 2_000_000 });
  const sbin = master.get('NSE', 'SBIN')!;
  const round = (p: number) => Number((Math.round(p / sbin.tickSize) * sbin.tickSize).toFixed(4));
  const order = (pricetype: 'MARKET' | 'LIMIT', price = 0): OrderInput => ({
    strategy: 'ticker',
    exchange: 'NSE',
    symbol: 'SBIN',
    action: 'BUY',
    quantity: 1,
    pricetype,
    product: 'MIS',
    price,
    trigger_price: 0,
    disclosed_quantity: 0,
  });
  return { engine, market, sbin, round, order };
}

describe('the paper engine ticker', () => {
  it('stops once nothing rests, starts when an order rests, and fills it from the tick', () => {
    const { engine, market, sbin, round, order } = setUp();
    engine.startTicker(250);
    // Armed at start (the open orders are not read yet); the first tick reads none and stops it.
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(250);
    expect(vi.getTimerCount()).toBe(0);

    // A MARKET order fills at once: nothing rests, no ticker.
    expect(engine.placeOrder('a0', order('MARKET')).ok).toBe(true);
    expect(vi.getTimerCount()).toBe(0);

    // A limit below the market rests: the ticker runs while it does.
    const ltp = market.lastPrice(sbin);
    const placed = engine.placeOrder('a0', order('LIMIT', round(ltp * 0.95)));
    expect(placed.ok).toBe(true);
    const id = placed.ok ? placed.value.orderid : '';
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(engine.orders('a0').find((o) => o.orderid === id)?.status).toBe('open');
    expect(vi.getTimerCount()).toBe(1);

    // The price comes down to it: the tick fills it (no call made), and the ticker stops.
    market.setPrice(sbin, round(ltp * 0.94));
    vi.advanceTimersByTime(250);
    expect(engine.orders('a0').find((o) => o.orderid === id)?.status).toBe('complete');
    vi.advanceTimersByTime(250);
    expect(vi.getTimerCount()).toBe(0);
    engine.close();
  });

  it('a cancelled resting order lets the ticker stop; stopTicker keeps it stopped when orders rest', () => {
    const { engine, market, sbin, round, order } = setUp();
    engine.startTicker(250);
    vi.advanceTimersByTime(250);
    const placed = engine.placeOrder('a0', order('LIMIT', round(market.lastPrice(sbin) * 0.9)));
    const id = placed.ok ? placed.value.orderid : '';
    expect(vi.getTimerCount()).toBe(1);
    expect(engine.cancelOrder('a0', id).ok).toBe(true);
    vi.advanceTimersByTime(250);
    expect(vi.getTimerCount()).toBe(0);

    engine.stopTicker();
    engine.placeOrder('a0', order('LIMIT', round(market.lastPrice(sbin) * 0.9)));
    expect(vi.getTimerCount()).toBe(0);
    engine.close();
  });
});
