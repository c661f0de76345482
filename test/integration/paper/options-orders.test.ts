// The option endpoints of the paper gateway over real HTTP (gateway-behaviour §3.9, §3.10, §10):
// optionsorder and optionsmultiorder, orders placed on the resolved symbol.
import { describe, expect, it } from 'vitest';
import { OptionsMultiOrderResponse, OptionsOrderResponse } from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { EXPIRY, NIFTY, useOptionsGateway } from './options-fixture.js';

const { gw, optionSymbol } = useOptionsGateway();

describe('optionsorder and optionsmultiorder', () => {
  it('places a MARKET order on the resolved symbol and names it', async () => {
    const key = gw.newKey();
    const expected = (await optionSymbol({ offset: 'ITM1', option_type: 'PE' })).body['symbol'];
    const r = await gw.api('optionsorder', key, {
      strategy: 'opt',
      ...NIFTY,
      offset: 'ITM1',
      option_type: 'PE',
      action: 'BUY',
      quantity: '65',
      pricetype: 'MARKET',
      product: 'NRML',
    });
    expect(r.status).toBe(200);
    const body = expectExact(OptionsOrderResponse, r.json);
    expect(body).toMatchObject({
      symbol: expected,
      exchange: 'NFO',
      offset: 'ITM1',
      option_type: 'PE',
      underlying: `NIFTY${EXPIRY}FUT`,
    });
    const order = gw.engine.order(gw.gateway.keys.verify(key) ?? '', body.orderid ?? '');
    expect(order).toMatchObject({
      symbol: expected,
      exchange: 'NFO',
      quantity: 65,
      product: 'NRML',
      action: 'BUY',
    });
  });

  it('splits into children when splitsize is given', async () => {
    const key = gw.newKey();
    const r = await gw.api('optionsorder', key, {
      strategy: 'opt',
      ...NIFTY,
      offset: 'ATM',
      option_type: 'CE',
      action: 'BUY',
      quantity: 130,
      splitsize: 65,
    });
    const body = expectExact(OptionsOrderResponse, r.json);
    expect(body.orderid).toBeUndefined();
    expect(body.results?.map((x) => x.status)).toEqual(['success', 'success']);
  });

  it('a bad offset places nothing', async () => {
    const key = gw.newKey();
    const r = await gw.api('optionsorder', key, {
      strategy: 'opt',
      ...NIFTY,
      offset: 'ATM0',
      option_type: 'CE',
      action: 'BUY',
      quantity: 65,
    });
    expect(r.status).toBe(400);
    expect(gw.engine.orders(gw.gateway.keys.verify(key) ?? '')).toEqual([]);
  });

  it('a leg with splitsize is placed as children and reports them', async () => {
    const key = gw.newKey();
    const r = await gw.api('optionsmultiorder', key, {
      strategy: 'split-leg',
      ...NIFTY,
      legs: [{ offset: 'ATM', option_type: 'CE', action: 'BUY', quantity: 195, splitsize: 65 }],
    });
    const body = expectExact(OptionsMultiOrderResponse, r.json);
    expect(body.results[0]?.status).toBe('success');
    const children = (body.results[0] as { results?: { quantity: number; status: string }[] }).results;
    expect(children?.map((c) => [c.quantity, c.status])).toEqual([
      [65, 'success'],
      [65, 'success'],
      [65, 'success'],
    ]);
    expect(gw.engine.orders(gw.gateway.keys.verify(key) ?? '')).toHaveLength(3);
  });

  it('an iron condor: four legs on their offsets; a leg that cannot resolve fails alone', async () => {
    const key = gw.newKey();
    const legs = [
      { offset: 'OTM6', option_type: 'CE', action: 'BUY', quantity: 65 },
      { offset: 'OTM6', option_type: 'PE', action: 'BUY', quantity: 65 },
      { offset: 'OTM4', option_type: 'CE', action: 'SELL', quantity: 65 },
      { offset: 'OTM4', option_type: 'PE', action: 'SELL', quantity: 65 },
      { offset: 'ATM', option_type: 'CE', action: 'BUY', quantity: 65, expiry_date: '03NOV26' },
    ];
    const r = await gw.api('optionsmultiorder', key, { strategy: 'condor', ...NIFTY, legs });
    expect(r.status).toBe(200);
    const body = expectExact(OptionsMultiOrderResponse, r.json);
    expect(body.results.map((x) => [x.leg, x.status])).toEqual([
      [1, 'success'],
      [2, 'success'],
      [3, 'success'],
      [4, 'success'],
      [5, 'error'],
    ]);
    for (const [i, leg] of legs.slice(0, 4).entries()) {
      const want = (await optionSymbol({ offset: leg.offset, option_type: leg.option_type })).body['symbol'];
      expect(body.results[i]?.symbol).toBe(want);
    }
    expect(body.results[4]?.message).toMatch(/03NOV26 has passed/);
    const orders = [...gw.engine.orders(gw.gateway.keys.verify(key) ?? '')].sort((a, b) =>
      a.orderid.localeCompare(b.orderid),
    );
    expect(orders).toHaveLength(4);
    // BUY legs go in first, as upstream places them.
    expect(orders.map((o) => o.action)).toEqual(['BUY', 'BUY', 'SELL', 'SELL']);
  });
});
