// The exit and reverse requests of one position: the order that closes or flips it, and, for a flat
// position or one the desk does not trade, no order and the reason in words.
import { describe, expect, it } from 'vitest';
import { exitRequest, reverseRequest } from '../../../src-renderer/src/lib/order-requests';
import { position } from '../../support/component/books-fixtures';

describe('exitRequest and reverseRequest', () => {
  it('a long position exits with one SELL of its net at market and reverses with one SELL of twice it', () => {
    const p = position({ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: 75 });
    expect(exitRequest(p)).toEqual({
      ok: true,
      side: 'SELL',
      what: 'SELL 75 SBIN NSE MIS at market',
      input: {
        symbol: 'SBIN',
        exchange: 'NSE',
        product: 'MIS',
        action: 'SELL',
        pricetype: 'MARKET',
        quantity: 75,
        position_size: 0,
      },
    });
    const rev = reverseRequest(p);
    expect(rev).toMatchObject({
      ok: true,
      side: 'SELL',
      target: -75,
      input: {
        symbol: 'SBIN',
        exchange: 'NSE',
        product: 'MIS',
        action: 'SELL',
        pricetype: 'MARKET',
        quantity: 150,
      },
    });
  });

  it('a short position closes and flips with BUY orders', () => {
    const p = position({ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: -20 });
    expect(exitRequest(p)).toMatchObject({ ok: true, side: 'BUY', input: { quantity: 20 } });
    expect(reverseRequest(p)).toMatchObject({ ok: true, side: 'BUY', target: 20, input: { quantity: 40 } });
  });

  it('sends nothing for a flat position and says so', () => {
    const p = position({ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: 0 });
    expect(exitRequest(p)).toEqual({ ok: false, reason: 'SBIN is already flat' });
    expect(reverseRequest(p)).toEqual({ ok: false, reason: 'SBIN is flat: nothing to reverse' });
  });

  it('sends nothing for a product or exchange the desk does not trade, naming both', () => {
    const product = position({ symbol: 'SBIN', exchange: 'NSE', product: 'NRML', quantity: 5 });
    expect(exitRequest(product)).toEqual({
      ok: false,
      reason: 'SBIN NRML on NSE cannot be exited from the desk',
    });
    expect(reverseRequest(product)).toEqual({
      ok: false,
      reason: 'SBIN NRML on NSE cannot be reversed from the desk',
    });
    const exchange = position({ symbol: 'NIFTY', exchange: 'NSE_INDEX', product: 'MIS', quantity: 5 });
    expect(exitRequest(exchange)).toEqual({
      ok: false,
      reason: 'NIFTY MIS on NSE_INDEX cannot be exited from the desk',
    });
  });
});
