// The legs' send order (BUY first, stable) and what an option symbol says of its contract.
import { describe, expect, it } from 'vitest';
import { exitRows } from '../../../../src-main/core/strategies/exit-basket.js';
import { parseOptionSymbol, restored, sendOrder } from '../../../../src-main/core/strategies/index.js';

describe('sendOrder', () => {
  it('sends BUY legs first, each side in the builder’s order', () => {
    const legs = ['SELL', 'BUY', 'SELL', 'BUY', 'BUY'].map((action) => ({ action }));
    expect(sendOrder(legs)).toEqual([1, 3, 4, 0, 2]);
    expect(sendOrder([{ action: 'SELL' }, { action: 'SELL' }])).toEqual([0, 1]);
    expect(sendOrder([])).toEqual([]);
  });
});

describe('parseOptionSymbol', () => {
  it('reads the underlying, expiry, strike and kind', () => {
    expect(parseOptionSymbol('NIFTY23NOV2626600CE')).toEqual({
      underlying: 'NIFTY',
      expiry: '23NOV26',
      strike: 26600,
      kind: 'CE',
    });
    expect(parseOptionSymbol('VEDL25APR24292.5PE')).toMatchObject({ underlying: 'VEDL', strike: 292.5 });
    expect(parseOptionSymbol('NIFTYNXT5030DEC2670000CE')).toMatchObject({ underlying: 'NIFTYNXT50' });
    expect(parseOptionSymbol('M&M30DEC263000PE')).toMatchObject({ underlying: 'M&M', kind: 'PE' });
  });

  it('is not an option: a future, a share, a bad month', () => {
    expect(parseOptionSymbol('NIFTY23NOV26FUT')).toBeUndefined();
    expect(parseOptionSymbol('SBIN')).toBeUndefined();
    expect(parseOptionSymbol('NIFTY23XYZ2626600CE')).toBeUndefined();
  });
});

describe('restored', () => {
  it('reads a leg saved as sending as unknown (never resent) and its strategy as partial', () => {
    const leg = (state: 'sent' | 'sending' | 'waiting') => ({
      symbol: 'NIFTY23NOV2626600CE',
      exchange: 'NFO',
      action: 'BUY' as const,
      quantity: 65,
      lotSize: 65,
      pricetype: 'MARKET' as const,
      price: 0,
      state,
      orderids: state === 'sent' ? ['1'] : [],
    });
    const s = restored({
      id: 'a',
      name: 'A',
      product: 'MIS',
      underlying: 'NIFTY',
      createdAt: 0,
      state: 'sending',
      legs: [leg('sent'), leg('sending'), leg('waiting')],
    });
    expect(s.state).toBe('partial');
    expect(s.legs.map((l) => l.state)).toEqual(['sent', 'unknown', 'waiting']);
    expect(s.legs[1]!.reason).toMatch(/the book will tell/);
    const exiting = restored({ ...s, state: 'exiting' });
    expect(exiting.state).toBe('exiting');
  });
});

describe('exitRows', () => {
  it('closes each leg’s open units on the opposite side, and skips flat legs', () => {
    const l = (symbol: string, action: 'BUY' | 'SELL') => ({
      symbol,
      exchange: 'NFO',
      action,
      quantity: 65,
      lotSize: 65,
      pricetype: 'MARKET' as const,
      price: 0,
      state: 'sent' as const,
      orderids: [],
    });
    const s = {
      id: 'a',
      name: 'A',
      product: 'MIS' as const,
      underlying: 'NIFTY',
      createdAt: 0,
      state: 'open' as const,
      legs: [l('P1', 'SELL'), l('P2', 'BUY'), l('C1', 'SELL')],
    };
    expect(exitRows(s, [-65, 130, 0])).toEqual([
      { leg: 0, symbol: 'P1', exchange: 'NFO', action: 'BUY', quantity: 65 },
      { leg: 1, symbol: 'P2', exchange: 'NFO', action: 'SELL', quantity: 130 },
    ]);
  });
});
