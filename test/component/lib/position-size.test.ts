// Position sizing from risk (lib/position-size): whole lots from the rupees at risk and the stop's
// distance, in exact decimals, and every refusal in words.
import { describe, expect, it } from 'vitest';
import { sizeFromRisk, type SizingInput } from '../../../src-renderer/src/lib/position-size';

const NIFTY: SizingInput = {
  side: 'BUY',
  entry: 24010.5,
  stopMode: 'price',
  stopText: '23990.5',
  riskText: '5000',
  lotSize: 65,
  tickSize: 0.1,
};

describe('size from risk', () => {
  it('NIFTY future: 20 points × 65 = ₹1,300 a lot; ₹5,000 covers 3 lots (195), risking ₹3,900', () => {
    expect(sizeFromRisk(NIFTY)).toEqual({
      ok: true,
      lots: 3,
      quantity: 195,
      stop: '23990.5',
      perLot: '1300',
      risk: '3900',
    });
  });

  it('points: a BUY stop sits under the entry, a SELL stop over it, the same distance', () => {
    const buy = sizeFromRisk({ ...NIFTY, stopMode: 'points', stopText: '20' });
    expect(buy).toMatchObject({ ok: true, lots: 3, stop: '23990.5' });
    const sell = sizeFromRisk({ ...NIFTY, side: 'SELL', stopMode: 'points', stopText: '20' });
    expect(sell).toMatchObject({ ok: true, lots: 3, stop: '24030.5' });
  });

  it('exact decimals: 0.1 + 0.2 style distances do not lose a lot to float error', () => {
    // 905.30 − 905.00 = 0.30 a share; ₹3 covers exactly 10 shares of a lot-1 equity.
    const r = sizeFromRisk({ ...NIFTY, entry: '905.30', stopText: '905.00', riskText: '3', lotSize: 1 });
    expect(r).toMatchObject({ ok: true, lots: 10, quantity: 10, perLot: '0.3', risk: '3' });
  });

  it('equity: lot 1, so the quantity is the shares the risk covers', () => {
    const r = sizeFromRisk({ ...NIFTY, entry: 905.3, stopText: '900.3', riskText: '1000', lotSize: 1 });
    expect(r).toMatchObject({ ok: true, lots: 200, quantity: 200, risk: '1000' });
  });

  it('refuses a stop on the wrong side, at the entry, below 0, and a risk under one lot', () => {
    const why = (over: Partial<SizingInput>) => {
      const r = sizeFromRisk({ ...NIFTY, ...over });
      return r.ok ? 'sized' : `${r.reason}: ${r.message}`;
    };
    expect(why({ stopText: '24020' })).toBe("wrong_side: A BUY's stop must be below the entry 24,010.50");
    expect(why({ side: 'SELL' })).toBe("wrong_side: A SELL's stop must be above the entry 24,010.50");
    expect(why({ stopText: '24010.5' })).toBe(
      'zero_distance: The stop is at the entry 24,010.50: no distance to size on',
    );
    expect(why({ riskText: '1000' })).toBe(
      'below_one_lot: ₹1,000.00 does not cover one lot: one lot risks ₹1,300.00 at this stop',
    );
    expect(why({ stopMode: 'points', stopText: '30000' })).toBe(
      'bad_stop: The stop would be at -5,989.50: below 0',
    );
    expect(why({ stopText: '' })).toBe('bad_stop: Stop must be a price above 0');
    expect(why({ stopMode: 'points', stopText: '-5' })).toBe('bad_stop: Stop points must be above 0');
    expect(why({ riskText: 'abc' })).toBe('bad_risk: Risk must be an amount above ₹0');
    expect(why({ entry: undefined })).toBe(
      'no_entry: No entry price yet: type the price, or wait for the last price',
    );
  });
});
