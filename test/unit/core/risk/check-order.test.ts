import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalsOf, isTickMultiple } from '../../../../src-main/shared/decimal.js';
import { checkOrder, type RiskContext, type RiskOrder } from '../../../../src-main/core/risk/index.js';

const limits = { maxQuantityPerOrder: 10_000, maxValuePerOrder: 10_00_000, priceBandPercent: 5 };
const eq = { lotSize: 1, tickSize: 0.05, freezeQty: 100_000 };
const fut = { lotSize: 25, tickSize: 0.05, freezeQty: 1800 };

function order(o: Partial<RiskOrder> = {}): RiskOrder {
  return {
    symbol: 'RELIANCE',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 10,
    pricetype: 'LIMIT',
    product: 'MIS',
    price: 100,
    trigger_price: 0,
    ...o,
  };
}
const ctx = (c: Partial<RiskContext> = {}): RiskContext => ({ limits, instrument: eq, lastPrice: 100, ...c });
function reasons(o: Partial<RiskOrder>, c: Partial<RiskContext> = {}): string[] {
  const r = checkOrder(order(o), ctx(c));
  return r.ok ? [] : r.reasons;
}

describe('checkOrder', () => {
  it('passes an ordinary order', () => {
    expect(checkOrder(order(), ctx())).toEqual({ ok: true });
  });

  it('max quantity per order', () => {
    expect(reasons({ quantity: 10_000, price: 1 }, { lastPrice: 1 })).toEqual([]);
    expect(reasons({ quantity: 12_000, price: 1 }, { lastPrice: 1 })).toEqual([
      'Quantity 12,000 exceeds your limit of 10,000 per order',
    ]);
  });

  it('max value per order, in en-IN rupees', () => {
    expect(reasons({ quantity: 10_000, price: 100 })).toEqual([]); // exactly ₹10,00,000.00
    expect(
      reasons(
        { quantity: 9_000, price: 137.175 },
        { lastPrice: 137.2, instrument: { ...eq, tickSize: 0.025 } },
      ),
    ).toEqual(['Order value ₹12,34,575.00 exceeds your limit of ₹10,00,000.00']);
    expect(reasons({ quantity: 5000, price: 246.9135 }, { instrument: undefined, lastPrice: 246.9 })).toEqual(
      ['Order value ₹12,34,567.50 exceeds your limit of ₹10,00,000.00'],
    );
  });

  it('value limit compares exactly, not in floats', () => {
    // 3 × 0.1 is 0.30000000000000004 in floats; the limit is exactly 0.3.
    const c = { limits: { ...limits, maxValuePerOrder: 0.3, priceBandPercent: 0 }, instrument: undefined };
    expect(reasons({ quantity: 3, price: 0.1 }, c)).toEqual([]);
    expect(reasons({ quantity: 4, price: 0.1 }, c)).toEqual([
      'Order value ₹0.40 exceeds your limit of ₹0.30',
    ]);
  });

  it('values a MARKET order at the last price and refuses when there is none', () => {
    expect(reasons({ pricetype: 'MARKET', price: 0, quantity: 1000 }, { lastPrice: 999 })).toEqual([]);
    expect(reasons({ pricetype: 'MARKET', price: 0, quantity: 1000 }, { lastPrice: 1001 })).toEqual([
      'Order value ₹10,01,000.00 exceeds your limit of ₹10,00,000.00',
    ]);
    expect(reasons({ pricetype: 'MARKET', price: 0 }, { lastPrice: undefined })).toEqual([
      'Order value cannot be checked against your limit of ₹10,00,000.00: no last price for RELIANCE',
    ]);
  });

  it('values an SL-M order at its trigger', () => {
    expect(
      reasons({ pricetype: 'SL-M', price: 0, trigger_price: 104, quantity: 9700 }, { lastPrice: 100 }),
    ).toEqual(['Order value ₹10,08,800.00 exceeds your limit of ₹10,00,000.00']);
  });

  it('price band on the LIMIT price', () => {
    expect(reasons({ price: 105 })).toEqual([]); // exactly 5%
    expect(reasons({ price: 105.05 })).toEqual([
      'Price ₹105.05 is 5.05% away from the last price ₹100.00; your limit is 5.00%',
    ]);
    expect(reasons({ price: 94.95 })).toHaveLength(1);
  });

  it('price band on the SL price and trigger; 0 turns the band off', () => {
    const sl = { pricetype: 'SL' as const, action: 'SELL' as const, price: 90, trigger_price: 90.5 };
    expect(reasons(sl)).toEqual([
      'Price ₹90.00 is 10.00% away from the last price ₹100.00; your limit is 5.00%',
      'Trigger price ₹90.50 is 9.50% away from the last price ₹100.00; your limit is 5.00%',
    ]);
    expect(reasons(sl, { limits: { ...limits, priceBandPercent: 0 } })).toEqual([]);
    expect(reasons({ pricetype: 'SL-M', price: 0, trigger_price: 120 })).toEqual([
      'Trigger price ₹120.00 is 20.00% away from the last price ₹100.00; your limit is 5.00%',
    ]);
  });

  it('a LIMIT order without a last price cannot pass the band', () => {
    expect(reasons({}, { lastPrice: undefined })).toEqual([
      'The price band of 5.00% cannot be checked: no last price for RELIANCE',
    ]);
  });

  it('lot-size multiple', () => {
    expect(reasons({ symbol: 'NIFTYFUT', exchange: 'NFO', quantity: 75 }, { instrument: fut })).toEqual([]);
    expect(reasons({ symbol: 'NIFTYFUT', exchange: 'NFO', quantity: 30 }, { instrument: fut })).toEqual([
      'Quantity 30 is not a multiple of the lot size 25',
    ]);
  });

  it('freeze quantity', () => {
    const c = { instrument: fut, limits: { ...limits, maxValuePerOrder: 1e9 } };
    expect(reasons({ symbol: 'NIFTYFUT', quantity: 1800 }, c)).toEqual([]);
    expect(reasons({ symbol: 'NIFTYFUT', quantity: 1825 }, c)).toEqual([
      'Quantity 1,825 exceeds the exchange freeze quantity of 1,800 for NIFTYFUT; split the order',
    ]);
  });

  it('tick size: 100.05 on 0.05 is valid, 100.03 is not', () => {
    expect(reasons({ price: 100.05 })).toEqual([]);
    expect(reasons({ price: 100.03 })).toEqual(['Price ₹100.03 is not a multiple of the tick size ₹0.05']);
    expect(reasons({ price: 100.051 })).toEqual(['Price ₹100.051 is not a multiple of the tick size ₹0.05']);
  });

  it('tick size applies to the trigger price too', () => {
    const sl = { pricetype: 'SL' as const, price: 101, trigger_price: 100.5 };
    expect(reasons(sl)).toEqual([]);
    expect(reasons({ ...sl, trigger_price: 100.52 })).toEqual([
      'Trigger price ₹100.52 is not a multiple of the tick size ₹0.05',
    ]);
  });

  it('leaves lot and tick to the exchange when the instrument is unknown', () => {
    expect(reasons({ price: 100.03, quantity: 7 }, { instrument: undefined })).toEqual([]);
  });

  it('LIMIT needs a price, SL and SL-M need a trigger', () => {
    expect(reasons({ price: 0 })).toEqual(['A LIMIT order needs a price above ₹0.00']);
    expect(reasons({ pricetype: 'SL-M', price: 0, trigger_price: 0 })).toEqual([
      'A SL-M order needs a trigger price above ₹0.00',
    ]);
  });

  it('SL trigger must be on the right side of the price', () => {
    expect(reasons({ pricetype: 'SL', price: 101, trigger_price: 100.5 })).toEqual([]);
    expect(reasons({ pricetype: 'SL', price: 100.5, trigger_price: 101 })).toEqual([
      'For a BUY SL order the trigger price ₹101.00 must be at or below the price ₹100.50',
    ]);
    expect(reasons({ pricetype: 'SL', action: 'SELL', price: 100.5, trigger_price: 100 })).toEqual([
      'For a SELL SL order the trigger price ₹100.00 must be at or above the price ₹100.50',
    ]);
  });

  it('reports every failing rule at once', () => {
    const all = reasons({ quantity: 30_001, price: 200.03 }, { instrument: fut });
    expect(all.map((r) => r.split(' ').slice(0, 5).join(' '))).toEqual([
      'Quantity 30,001 exceeds your limit',
      'Quantity 30,001 exceeds the exchange',
      'Quantity 30,001 is not a',
      'Price ₹200.03 is not a',
      'Price ₹200.03 is 100.03% away',
      'Order value ₹60,01,100.03 exceeds your',
    ]);
  });
});

describe('tick validity (property)', () => {
  const ticks = [0.05, 0.01, 0.1, 0.25, 0.5, 1, 5, 0.0025, 0.0001];

  it('every whole number of ticks, written as a trader types it, is valid', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ticks), fc.integer({ min: 1, max: 50_000_000 }), (tick, n) => {
        // The price as typed: n ticks, at the tick's own decimals (what a text field would hold).
        const price = Number((n * tick).toFixed(decimalsOf(tick)));
        expect(isTickMultiple(price, tick)).toBe(true);
        expect(
          checkOrder(
            order({ price }),
            ctx({
              instrument: { lotSize: 1, tickSize: tick },
              limits: { ...limits, priceBandPercent: 0, maxValuePerOrder: 1e12 },
            }),
          ).ok,
        ).toBe(true);
      }),
    );
  });

  it('any price strictly between two ticks is invalid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ticks),
        fc.integer({ min: 0, max: 50_000_000 }),
        fc.integer({ min: 1, max: 99 }),
        (tick, n, part) => {
          // n ticks plus part/100 of a tick, written with two more decimals than the tick has.
          const places = decimalsOf(tick) + 2;
          const price = Number(((n + part / 100) * tick).toFixed(places));
          fc.pre(price > n * tick && price < (n + 1) * tick);
          expect(isTickMultiple(price, tick)).toBe(false);
        },
      ),
    );
  });
});
