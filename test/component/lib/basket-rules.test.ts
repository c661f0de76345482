// Basket arithmetic: each leg valued at its limit, trigger or last price, the margin estimate per
// leg's leverage, and results matched to legs in the gateway's placement order (BUY legs first).
import { describe, expect, it } from 'vitest';
import type { BasketLeg } from '@contract';
import { toPlainText } from '../../../src-main/shared/decimal.js';
import { basketTotals, matchResults } from '../../../src-renderer/src/lib/basket-rules';

const leg = (over: Partial<BasketLeg>): BasketLeg => ({
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 1,
  pricetype: 'MARKET',
  product: 'MIS',
  price: 0,
  trigger_price: 0,
  disclosed_quantity: 0,
  ...over,
});

describe('matchResults', () => {
  it('pairs two legs of one symbol with their own results: the BUY leg is placed (and answered) first', () => {
    const legs = [leg({ action: 'SELL', quantity: 5 }), leg({ action: 'BUY', quantity: 3 })];
    const results = [
      { symbol: 'SBIN', exchange: 'NSE', status: 'success', orderid: 'BUY-FIRST' },
      { symbol: 'SBIN', exchange: 'NSE', status: 'error', message: 'no holdings to sell' },
    ];
    const matched = matchResults(legs, results);
    expect(matched[1]?.orderid).toBe('BUY-FIRST');
    expect(matched[0]?.message).toBe('no holdings to sell');
  });

  it('leaves a leg the gateway did not answer unmatched', () => {
    const matched = matchResults([leg({}), leg({ symbol: 'INFY' })], [{ symbol: 'INFY', status: 'success' }]);
    expect(matched[0]).toBeUndefined();
    expect(matched[1]?.status).toBe('success');
  });
});

describe('basketTotals', () => {
  it('values limit legs at their price, market legs at the last price, and says which had none', () => {
    const legs = [
      leg({ quantity: 10 }),
      leg({ symbol: 'INFY', action: 'SELL', quantity: 5, pricetype: 'LIMIT', price: 1500.05 }),
      leg({ symbol: 'TCS', quantity: 1 }),
      leg({
        symbol: 'NIFTY25NOV26FUT',
        exchange: 'NFO',
        quantity: 65,
        pricetype: 'LIMIT',
        price: 25800.1,
        product: 'NRML',
      }),
      leg({ symbol: 'ITC', action: 'SELL', quantity: 4, pricetype: 'LIMIT', price: 410, product: 'CNC' }),
    ];
    const t = basketTotals(legs, (l) => (l.symbol === 'SBIN' ? 905.3 : undefined));
    // 9,053 + 7,500.25 + 16,77,006.50 + 1,640 = 16,95,199.75
    expect(toPlainText(t.value)).toBe('1695199.75');
    // MIS equity ÷5: 1,810.60 + 1,500.05; the future ÷10: 1,67,700.65; SELL CNC blocks none.
    expect(toPlainText(t.margin)).toBe('171011.3');
    expect(t.unpriced).toBe(1);
  });
});
