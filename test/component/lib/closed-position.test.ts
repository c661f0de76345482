// A closed position's realised P&L and averages: the gateway's figure when its row has one, else
// the day's trades (sell value − buy value, exact decimals), and buy/sell averages from the trades.
import { describe, expect, it } from 'vitest';
import type { TradeRow } from '@contract';
import { closedFigures } from '../../../src-renderer/src/lib/closed-position';
import { position } from '../../support/component/books-fixtures';

function trade(over: Partial<TradeRow>): TradeRow {
  return {
    orderid: 'T1',
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    product: 'MIS',
    quantity: 1,
    averagePrice: 1,
    tradeValue: 1,
    timestamp: '28-11-2026 10:00:00',
    ...over,
  };
}

const FLAT = position({ quantity: 0, averagePrice: 0, mtm: 0 });

describe('closedFigures', () => {
  it('derives the realised P&L from balanced trades exactly (no float drift)', () => {
    const trades = [
      trade({ action: 'BUY', quantity: 3, averagePrice: 0.1 }),
      trade({ action: 'SELL', quantity: 1, averagePrice: 0.35 }),
      trade({ action: 'SELL', quantity: 2, averagePrice: 0.2 }),
    ];
    // 0.35 + 0.4 − 0.3 = 0.45 exactly; averages 0.10 and 0.25.
    expect(closedFigures(FLAT, trades)).toEqual({ realised: 0.45, buyAverage: 0.1, sellAverage: 0.25 });
  });

  it("prefers the gateway's own realised figure, and takes only this symbol and product", () => {
    const trades = [
      trade({ action: 'BUY', quantity: 10, averagePrice: 900 }),
      trade({ action: 'SELL', quantity: 10, averagePrice: 905.3 }),
      trade({ action: 'SELL', quantity: 10, averagePrice: 1, product: 'CNC' }),
      trade({ action: 'SELL', quantity: 10, averagePrice: 1, symbol: 'INFY' }),
    ];
    expect(closedFigures({ ...FLAT, realised: 50 }, trades)).toEqual({
      realised: 50,
      buyAverage: 900,
      sellAverage: 905.3,
    });
  });

  it('says no realised P&L when the trades do not balance (a position carried in) and the row is silent', () => {
    const trades = [trade({ action: 'SELL', quantity: 10, averagePrice: 905.3 })];
    expect(closedFigures(FLAT, trades)).toEqual({ sellAverage: 905.3 });
  });

  it('gives nothing for an open position', () => {
    expect(closedFigures(position({ quantity: 5 }), [trade({})])).toEqual({});
  });
});
