import { describe, expect, it } from 'vitest';
import { createDuplicateGuard, preTradeCheck, type RiskOrder } from '../../../../src-main/core/risk/index.js';

const clock = { now: () => 1_000 };
const order: RiskOrder = {
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 10,
  pricetype: 'LIMIT',
  product: 'MIS',
  price: 800,
  trigger_price: 0,
};
const ctx = {
  limits: { maxQuantityPerOrder: 100, maxValuePerOrder: 1_00_000, priceBandPercent: 5 },
  instrument: { lotSize: 1, tickSize: 0.05 },
  lastPrice: 800,
};

describe('preTradeCheck', () => {
  it('a refused order is not recorded by the duplicate guard', () => {
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    expect(preTradeCheck({ ...order, price: 800.03 }, ctx, guard).ok).toBe(false);
    expect(preTradeCheck(order, ctx, guard)).toEqual({ ok: true });
    expect(preTradeCheck(order, ctx, guard).ok).toBe(false);
    expect(preTradeCheck(order, ctx, guard, { confirmDuplicate: true })).toEqual({ ok: true });
  });
});
