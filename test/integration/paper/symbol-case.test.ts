// Symbols are upper-cased on every order-engine endpoint, as placeorder does: a lower-case symbol
// must read and act on the same instrument, never answer as if nothing were there.
import { describe, expect, it } from 'vitest';
import { useTestGateway, type HttpResult } from '../../support/paper-gateway.js';

const gw = useTestGateway();

function ok(r: HttpResult): Record<string, unknown> {
  expect(r.status, r.text).toBe(200);
  expect(r.body.status, r.text).toBe('success');
  return r.body;
}
const buy = (key: string, symbol: string, quantity: number, strategy = 'CASE') =>
  gw.api('placeorder', key, { strategy, exchange: 'NSE', symbol, action: 'BUY', quantity, product: 'MIS' });
const open = (key: string, symbol: string, strategy = 'CASE') =>
  gw.api('positionsopen', key, { strategy, symbol, exchange: 'NSE', product: 'MIS' });

describe('lower-case symbols', () => {
  it('positionsopen reports the exposure of a lower-case symbol (no false proof of zero)', async () => {
    const key = gw.newKey();
    ok(await buy(key, 'sbin', 25));
    expect(ok(await open(key, 'sbin')).quantity).toBe(25);
    expect(ok(await open(key, 'SBIN')).quantity).toBe(25);
    expect(ok(await open(key, 'Sbin')).quantity).toBe(25);
  });

  it('openposition and the smart order read the same position', async () => {
    const key = gw.newKey();
    ok(await buy(key, 'SBIN', 10));
    const r = ok(
      await gw.api('openposition', key, {
        strategy: 'CASE',
        symbol: 'sbin',
        exchange: 'NSE',
        product: 'MIS',
      }),
    );
    expect(r.quantity).toBe(10);
    const smart = ok(
      await gw.api('placesmartorder', key, {
        strategy: 'CASE',
        exchange: 'NSE',
        symbol: 'sbin',
        action: 'BUY',
        quantity: 10,
        position_size: 10,
        product: 'MIS',
      }),
    );
    expect(smart.message).toBe('Positions Already Matched. No Action needed.');
  });

  it('closeposition closes what a lower-case order opened, and positionsopen then proves zero', async () => {
    const key = gw.newKey();
    ok(await buy(key, 'infy', 6));
    const close = ok(await gw.api('closeposition', key, { strategy: 'CASE' }));
    expect(close.message).toBe('All Open Positions SquaredOff');
    expect(ok(await open(key, 'infy')).quantity).toBe(0);
    const book = (await gw.api('positionbook', key, {})).body.data as { symbol: string; quantity: number }[];
    expect(book.filter((p) => p.symbol === 'INFY').map((p) => p.quantity)).toEqual([0]);
  });

  it('split and basket orders answer with the instrument symbol', async () => {
    const key = gw.newKey();
    const basket = ok(
      await gw.api('basketorder', key, {
        strategy: 'CASE',
        orders: [{ symbol: 'tcs', exchange: 'NSE', action: 'BUY', quantity: 1 }],
      }),
    );
    expect(basket.results).toMatchObject([{ status: 'success', symbol: 'TCS' }]);
    ok(
      await gw.api('splitorder', key, {
        strategy: 'CASE',
        exchange: 'NSE',
        symbol: 'tcs',
        action: 'BUY',
        quantity: 3,
        splitsize: 2,
      }),
    );
    expect(ok(await open(key, 'tcs')).quantity).toBe(4);
  });
});
