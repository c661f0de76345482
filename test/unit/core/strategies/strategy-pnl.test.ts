// A strategy's P&L from its legs' trades, exact to the paisa where floating point is not: prices
// whose float products and sums are off (101.05 × 75 is 7578.749999999999) still give exact paise.
import { describe, expect, it } from 'vitest';
import {
  legPnl,
  moneyOf,
  reached,
  rupeeText,
  strategyPnl,
  toPaise,
} from '../../../../src-main/core/strategies/index.js';

const t = (action: 'BUY' | 'SELL', quantity: number, price: number) => ({ action, quantity, price });

describe('legPnl', () => {
  it('books a round trip exactly where floats do not', () => {
    // Floats: (99.95 − 101.05) × 75 = −82.49999999999957.
    expect((99.95 - 101.05) * 75).not.toBe(-82.5);
    const p = legPnl('BUY', [t('BUY', 75, 101.05), t('SELL', 75, 99.95)], 99.95);
    expect(p.open).toBe(0);
    expect(toPaise(p.realised)).toBe(-8250n);
    expect(rupeeText(p.realised)).toBe('-82.50');
    expect(rupeeText(p.unrealised!)).toBe('0.00');
    expect(rupeeText(p.entryAverage!)).toBe('101.05');
  });

  it('values a short at the last price: (fill − ltp) × units', () => {
    const p = legPnl('SELL', [t('SELL', 65, 86.65)], 86.7);
    expect(p.open).toBe(-65);
    expect(toPaise(p.unrealised!)).toBe(-325n);
    expect(toPaise(p.realised)).toBe(0n);
  });

  it('realises a partial close at the average cost, keeping the rest at it', () => {
    // Bought 75 @ 100.05 and 75 @ 100.10 (average 100.075), sold 75 @ 101: realised 0.925 × 75.
    const p = legPnl('BUY', [t('BUY', 75, 100.05), t('BUY', 75, 100.1), t('SELL', 75, 101)], 100.2);
    expect(p.open).toBe(75);
    expect(toPaise(p.realised)).toBe(6938n); // 69.375 → 69.38 shown
    expect(rupeeText(p.realised)).toBe('69.38');
    // (100.2 − 100.075) × 75 = 9.375; the sum is exact before it is rounded: 78.75.
    const s = strategyPnl([p]);
    expect(rupeeText(s.pnl!)).toBe('78.75');
  });

  it('keeps thirds exact until shown: three fills averaged, then closed', () => {
    const p = legPnl(
      'BUY',
      [
        t('BUY', 1, 100.05),
        t('BUY', 1, 100.1),
        t('BUY', 1, 100.2),
        t('SELL', 2, 100.15),
        t('SELL', 1, 100.15),
      ],
      null,
    );
    expect(p.open).toBe(0);
    // 3 × 100.15 − (100.05 + 100.10 + 100.20) = 0.10 exactly, though 2/3 of the cost went first.
    expect(p.realised).toEqual(moneyOf(0.1));
    expect(p.unrealised).toEqual(moneyOf(0));
  });

  it('flips through zero: the excess opens the other side at the trade price', () => {
    const p = legPnl('BUY', [t('BUY', 50, 10.05), t('SELL', 75, 10.25)], 10.15);
    expect(p.open).toBe(-25);
    expect(toPaise(p.realised)).toBe(1000n); // 0.20 × 50
    expect(toPaise(p.unrealised!)).toBe(250n); // (10.25 − 10.15) × 25
  });

  it('has no unrealised without a price while open, and so no total', () => {
    const open = legPnl('BUY', [t('BUY', 65, 55.05)], null);
    expect(open.unrealised).toBeNull();
    const flat = legPnl('SELL', [], null);
    expect(strategyPnl([open, flat]).pnl).toBeNull();
    expect(rupeeText(strategyPnl([open, flat]).realised)).toBe('0.00');
  });

  it('sums an iron condor’s legs to the exact paisa', () => {
    const legs = [
      legPnl('SELL', [t('SELL', 75, 101.05)], 99.95),
      legPnl('BUY', [t('BUY', 75, 55.05)], 55.1),
      legPnl('SELL', [t('SELL', 75, 99.65)], 99.75),
      legPnl('BUY', [t('BUY', 75, 65.05)], 64.95),
    ];
    // (1.10 + 0.05 − 0.10 − 0.10) × 75 = 71.25
    expect(rupeeText(strategyPnl(legs).pnl!)).toBe('71.25');
  });
});

describe('reached', () => {
  it('fires the stop at −stop or below and the target at it or above, nothing between', () => {
    expect(reached(moneyOf(-500), 500, 800)).toBe('stop');
    expect(reached(moneyOf(-500.01), 500, undefined)).toBe('stop');
    expect(reached(moneyOf(-499.99), 500, 800)).toBeUndefined();
    expect(reached(moneyOf(799.99), 500, 800)).toBeUndefined();
    expect(reached(moneyOf(800), 500, 800)).toBe('target');
    expect(reached(moneyOf(-10000), undefined, 800)).toBeUndefined();
    expect(reached(null, 500, 800)).toBeUndefined();
  });
});
