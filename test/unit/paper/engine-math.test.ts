// Pure engine arithmetic: fixed-point money, positions, margin, validation, ids, book walking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIstTimestamp } from '../../../src-main/paper/engine/ist-time.js';
import { DEFAULT_LEVERAGE, orderMargin, positionMargin } from '../../../src-main/paper/engine/margin.js';
import { LiquidityTracker } from '../../../src-main/paper/engine/matching.js';
import { OrderIds, tradeId } from '../../../src-main/paper/engine/order-ids.js';
import { applyFill, sellFromHolding } from '../../../src-main/paper/engine/positions.js';
import { formatMoney, toUnitsExact } from '../../../src-main/paper/engine/units.js';
import { checkTick } from '../../../src-main/paper/engine/validation.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';

describe('money', () => {
  it('formats units to the paisa', () => {
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(12_345)).toBe('1.23');
    expect(formatMoney(12_350)).toBe('1.24');
    expect(formatMoney(-5_000)).toBe('-0.50');
    expect(formatMoney(-49)).toBe('0.00');
    expect(formatMoney(100_000_000_000)).toBe('10000000.00');
  });

  it('converts only representable prices exactly', () => {
    expect(toUnitsExact(100.05)).toBe(1_000_500);
    expect(toUnitsExact(0.0025)).toBe(25);
    expect(toUnitsExact(1.00001)).toBeUndefined();
  });

  it('checks ticks without float error', () => {
    const inst = { tickSize: 0.05 } as Instrument;
    for (const p of [0.1, 0.15, 0.3, 1.15, 100.05, 2345.65, 99999.95])
      expect(checkTick('Price', p, inst)).toBeUndefined();
    expect(checkTick('Price', 100.03, inst)).toBe('Price 100.03 is not a multiple of tick size 0.05');
    const cds = { tickSize: 0.0025 } as Instrument;
    expect(checkTick('Price', 83.2525, cds)).toBeUndefined();
    expect(checkTick('Price', 83.251, cds)).toMatch(/not a multiple of tick size 0.0025/);
  });
});

describe('positions', () => {
  it('extends, reduces, closes and reverses with realised P&L', () => {
    let p = applyFill({ quantity: 0, cost: 0, realised: 0 }, 100, 8_001_000); // +100 @ 800.10
    p = applyFill(p, -50, 8_099_000); // sell 50 @ 809.90
    expect(p).toEqual({ quantity: 50, cost: 400_050_000, realised: 4_900_000 }); // ₹490
    p = applyFill(p, -100, 8_100_000); // sell 100 @ 810: close 50, short 50
    expect(p.quantity).toBe(-50);
    expect(p.cost).toBe(-405_000_000);
    expect(p.realised).toBe(4_900_000 + 4_950_000);
  });

  it('keeps Σ cash flow = realised − cost for any fill sequence', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: -500, max: 500 }).filter((q) => q !== 0),
            fc.integer({ min: 1, max: 200_000 }),
          ),
          {
            maxLength: 40,
          },
        ),
        (fills) => {
          let p = { quantity: 0, cost: 0, realised: 0 };
          let flow = 0;
          let qty = 0;
          for (const [q, price] of fills) {
            p = applyFill(p, q, price * 5);
            flow += -q * price * 5;
            qty += q;
          }
          expect(p.quantity).toBe(qty);
          expect(p.realised - p.cost).toBe(flow);
          if (p.quantity === 0) expect(p.cost).toBe(0);
        },
      ),
    );
  });

  it('sells from a holding pro rata', () => {
    expect(sellFromHolding({ quantity: 10, cost: 1_000_000 }, 4, 120_000)).toEqual({
      quantity: 6,
      cost: 600_000,
      realised: 80_000,
    });
  });
});

describe('margin', () => {
  const eq = { kind: 'EQ' } as const;
  it('blocks only the opening part of an order', () => {
    expect(orderMargin(DEFAULT_LEVERAGE, eq, 'MIS', true, 100, 8_000_000, 0)).toBe(160_000_000); // ₹16,000
    expect(orderMargin(DEFAULT_LEVERAGE, eq, 'MIS', false, 50, 8_100_000, 100)).toBe(0);
    expect(orderMargin(DEFAULT_LEVERAGE, eq, 'MIS', false, 150, 8_050_000, 100)).toBe(80_500_000);
    expect(orderMargin(DEFAULT_LEVERAGE, eq, 'CNC', false, 10, 8_000_000, 0)).toBe(0);
    expect(orderMargin(DEFAULT_LEVERAGE, { kind: 'FUT' }, 'NRML', false, 65, 250_000_000, 0)).toBe(
      Math.ceil((65 * 250_000_000) / 10),
    );
  });
  it('holds position margin by leverage', () => {
    expect(positionMargin(DEFAULT_LEVERAGE, eq, 'CNC', 10, 1_000_000)).toBe(1_000_000);
    expect(positionMargin(DEFAULT_LEVERAGE, { kind: 'CE' }, 'MIS', -75, -750_000)).toBe(750_000);
    expect(positionMargin(DEFAULT_LEVERAGE, eq, 'MIS', 0, 0)).toBe(0);
  });
});

describe('ids and time', () => {
  it('issues 14-digit, increasing order ids resuming from the ledger', () => {
    const now = Date.parse('2026-11-22T10:15:03+05:30');
    const ids = new OrderIds(() => '26112200000417');
    const a = ids.next(now);
    const b = ids.next(now);
    expect(a).toMatch(/^2611220000042\d$/);
    expect(b > a).toBe(true);
    expect(b).toHaveLength(14);
    expect(tradeId(now, 255)).toBe('TRADE-20261122-101503-000000ff');
    expect(formatIstTimestamp(now)).toBe('22-Nov-2026 10:15:03');
  });
});

describe('book walking', () => {
  it('takes each level once per second and stops at the limit', () => {
    const t = new LiquidityTracker();
    const asks = [
      { price: 100, quantity: 10 },
      { price: 100.05, quantity: 5 },
    ];
    expect(t.walk('k', 1, asks, 12)).toEqual([
      { price: 1_000_000, quantity: 10 },
      { price: 1_000_500, quantity: 2 },
    ]);
    expect(t.walk('k', 1, asks, 10)).toEqual([{ price: 1_000_500, quantity: 3 }]);
    expect(t.walk('k', 2, asks, 20, (p) => p <= 1_000_000)).toEqual([{ price: 1_000_000, quantity: 10 }]);
  });
});
