// nearFuture: the first watchlist's NIFTY future is the nearest one not yet expired, NIFTY's own
// (not BANKNIFTY's or FINNIFTY's), a future (not an option), by date (not by the expiry's text).
import { describe, expect, it } from 'vitest';
import type { SymbolRecord } from '../../../../src-main/contract/index.js';
import { nearFuture } from '../../../../src-main/core/settings/first-watchlist.js';

function rec(symbol: string, name: string, expiry: string, instrumenttype = 'FUTIDX'): SymbolRecord {
  return {
    symbol,
    brsymbol: symbol,
    name,
    exchange: 'NFO',
    brexchange: 'NFO',
    token: symbol,
    expiry,
    strike: -1,
    lotsize: 75,
    instrumenttype,
    tick_size: 0.05,
  };
}

const TODAY = 20261127;

describe('nearFuture', () => {
  it('takes the nearest NIFTY future not expired, by date', () => {
    const rows = [
      rec('NIFTY23FEB27FUT', 'NIFTY', '23-FEB-27'),
      rec('NIFTY26JAN27FUT', 'NIFTY', '26-JAN-27'),
      rec('NIFTY29DEC26FUT', 'NIFTY', '29-DEC-26'),
      rec('NIFTY24NOV26FUT', 'NIFTY', '24-NOV-26'),
      rec('BANKNIFTY29DEC26FUT', 'BANKNIFTY', '29-DEC-26'),
      rec('NIFTY01DEC2624000CE', 'NIFTY', '01-DEC-26', 'OPTIDX'),
    ];
    expect(nearFuture(rows, TODAY)).toEqual({ symbol: 'NIFTY29DEC26FUT', exchange: 'NFO' });
  });

  it("takes today's expiry, and nothing when there is no NIFTY future", () => {
    expect(nearFuture([rec('NIFTY27NOV26FUT', 'NIFTY', '27-NOV-26')], TODAY)?.symbol).toBe('NIFTY27NOV26FUT');
    expect(nearFuture([rec('FINNIFTY29DEC26FUT', 'FINNIFTY', '29-DEC-26')], TODAY)).toBeUndefined();
  });
});
