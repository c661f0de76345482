// The guard's rule math, pure: usage in exact paise (no float drift), when each rule is breached,
// the MTM from books and live prices, and 50 % / 80 % warnings given once per level.
import { describe, expect, it } from 'vitest';
import { GuardRules } from '../../../../src-main/contract/index.js';
import { markToMarket, ordersOfDay } from '../../../../src-main/core/guard/guard-mtm.js';
import {
  nearestOf,
  paiseText,
  usageOf,
  warningsDue,
  type GuardFigures,
} from '../../../../src-main/core/guard/guard-rules.js';

const rules = (r: object) => GuardRules.parse({ enabled: true, ...r });
const figures = (f: Partial<GuardFigures>): GuardFigures => ({
  mtm: 0n,
  peak: 0n,
  orders: 0,
  openPositions: 0,
  worst: { loss: 0n, symbol: '' },
  ...f,
});

describe('usage', () => {
  it('is exact in paise: a loss of exactly the limit breaches, a paisa less does not', () => {
    const r = rules({ dailyLoss: 5000.1 });
    expect(usageOf(r, figures({ mtm: -500_010n }))[0]).toMatchObject({
      used: '5000.10',
      limit: '5000.10',
      percent: 100,
      breached: true,
    });
    expect(usageOf(r, figures({ mtm: -500_009n }))[0]).toMatchObject({ percent: 99, breached: false });
  });

  it('rounds the percent down and words the use in en-IN rupees', () => {
    const [u] = usageOf(rules({ dailyLoss: 5000 }), figures({ mtm: -251_000n }));
    expect(u).toMatchObject({ percent: 50, words: 'Day loss ₹2,510.00 of ₹5,000.00' });
  });

  it('counts drawdown from the peak, and max orders at the cap, max open positions past it', () => {
    const r = rules({ maxDrawdown: 400, maxOrders: 3, maxOpenPositions: 2 });
    const u = usageOf(r, figures({ mtm: -10_000n, peak: 30_000n, orders: 3, openPositions: 2 }));
    expect(u.map((x) => [x.rule, x.used, x.breached])).toEqual([
      ['maxDrawdown', '400.00', true],
      ['maxOrders', '3', true],
      ['maxOpenPositions', '2', false],
    ]);
  });

  it('leaves money rules out while the MTM is unknown, and rules that are off', () => {
    const r = rules({ dailyLoss: 100, dailyProfit: 0, maxOrders: 5 });
    expect(usageOf(r, figures({ mtm: null, orders: 1 })).map((u) => u.rule)).toEqual(['maxOrders']);
  });

  it('names the nearest limit', () => {
    const r = rules({ dailyLoss: 1000, maxOrders: 4 });
    expect(nearestOf(usageOf(r, figures({ mtm: -20_000n, orders: 3 })))?.rule).toBe('maxOrders');
  });
});

describe('warnings', () => {
  const r = rules({ dailyLoss: 1000 });
  const at = (paise: bigint) => usageOf(r, figures({ mtm: -paise }));
  it('are due once per level, the highest reached only', () => {
    expect(warningsDue(at(49_900n), {})).toEqual([]);
    expect(warningsDue(at(50_000n), {}).map((w) => w.level)).toEqual([50]);
    expect(warningsDue(at(60_000n), { dailyLoss: 50 })).toEqual([]);
    expect(warningsDue(at(85_000n), {}).map((w) => w.level)).toEqual([80]);
    expect(warningsDue(at(85_000n), { dailyLoss: 80 })).toEqual([]);
  });
  it('are not given for a breached rule (the breach says it)', () => {
    expect(warningsDue(at(100_000n), {})).toEqual([]);
  });
});

describe('mark to market', () => {
  const pos = (symbol: string, quantity: number, averagePrice: number, ltp: number | null) => ({
    symbol,
    exchange: 'NSE',
    quantity,
    averagePrice,
    ltp,
    mtm: null,
  });
  it('adds realised to each open position at the live price, exactly (0.05 × 3 is 0.15)', () => {
    const live = new Map([['NSE:SBIN', 100.1]]);
    const m = markToMarket([pos('SBIN', 3, 100.05, 99), pos('ITC', -2, 400.1, 400.3)], '-12.30', live);
    // SBIN +0.15 at the live price, ITC -0.40, realised -12.30.
    expect(paiseText(m.mtm!)).toBe('-12.55');
    expect(m.openPositions).toBe(2);
    expect(m.worst).toEqual({ loss: 40n, symbol: 'ITC' });
  });
  it('is unknown while a position has no price or the funds are unread', () => {
    expect(markToMarket([pos('SBIN', 1, 10, null)], '0', new Map()).mtm).toBeNull();
    expect(markToMarket([pos('SBIN', 1, 10, 11)], null, new Map()).mtm).toBeNull();
    expect(markToMarket([pos('SBIN', 0, 10, null)], '5.00', new Map()).mtm).toBe(500n);
  });
  it('counts the day’s orders by their IST date; an unreadable one counts', () => {
    const orders = [
      { timestamp: '20-Nov-2026 10:00:01' },
      { timestamp: '19-Nov-2026 15:00:00' },
      { timestamp: '?' },
    ];
    expect(ordersOfDay(orders, '2026-11-20')).toBe(2);
  });
});
