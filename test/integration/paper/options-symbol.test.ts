// The option endpoints of the paper gateway over real HTTP (gateway-behaviour §3.9, §3.10, §10):
// optionsymbol, answers exact to the contract's sample shapes, offset resolution along the listed
// strikes, and upstream's refusals for an unknown offset, a passed expiry and a strike off the
// chain.
import { describe, expect, it } from 'vitest';
import { OptionSymbolResponse } from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { EXPIRY, nearest, useOptionsGateway } from './options-fixture.js';

const { gw, strikes, optionSymbol } = useOptionsGateway();

describe('optionsymbol', () => {
  it('ATM is the listed strike nearest the index, answered in the sample shape', async () => {
    const r = await optionSymbol({ offset: 'ATM', option_type: 'CE' });
    expect(r.status).toBe(200);
    const body = expectExact(OptionSymbolResponse, r.json);
    const ltp = gw.gateway.market.lastPrice(gw.instrument('NSE_INDEX', 'NIFTY'));
    expect(body.underlying_ltp).toBe(ltp);
    const atm = nearest(strikes(), ltp);
    expect(body.symbol).toBe(`NIFTY${EXPIRY}${atm}CE`);
    const inst = gw.instrument('NFO', body.symbol);
    expect(body).toMatchObject({ exchange: 'NFO', lotsize: inst.lotsize, tick_size: inst.tickSize });
  });

  it('ITMn/OTMn walk the listed strikes: CE ITM lower, CE OTM higher, PE the reverse', async () => {
    const list = strikes();
    const ltp = gw.gateway.market.lastPrice(gw.instrument('NSE_INDEX', 'NIFTY'));
    const i = list.indexOf(nearest(list, ltp));
    const cases: [string, 'CE' | 'PE', number][] = [
      ['ITM2', 'CE', i - 2],
      ['OTM4', 'CE', i + 4],
      ['ITM3', 'PE', i + 3],
      ['otm1', 'PE', i - 1],
    ];
    for (const [offset, type, at] of cases) {
      const r = await optionSymbol({ offset, option_type: type });
      expect(r.status, offset).toBe(200);
      expect(r.body['symbol'], `${offset} ${type}`).toBe(`NIFTY${EXPIRY}${list[at]}${type}`);
    }
  });

  it('strike_int puts ATM at round(ltp / strike_int) × strike_int', async () => {
    const ltp = gw.gateway.market.lastPrice(gw.instrument('NSE_INDEX', 'NIFTY'));
    const r = await optionSymbol({ offset: 'OTM2', option_type: 'CE', strike_int: 100 });
    expect(r.status).toBe(200);
    expect(r.body['symbol']).toBe(`NIFTY${EXPIRY}${Math.round(ltp / 100) * 100 + 200}CE`);
  });

  it('an underlying carrying its expiry needs no expiry_date', async () => {
    const a = await gw.api('optionsymbol', gw.apiKey, {
      underlying: `NIFTY${EXPIRY}FUT`,
      exchange: 'NFO',
      offset: 'ATM',
      option_type: 'PE',
    });
    const b = await optionSymbol({ offset: 'ATM', option_type: 'PE' });
    expect(a.status).toBe(200);
    expect(a.body['symbol']).toBe(b.body['symbol']);
  });

  it('refuses an unknown offset, a passed or impossible expiry, and a strike off the chain', async () => {
    const bad = async (fields: Record<string, unknown>) => {
      const r = await optionSymbol({ option_type: 'CE', offset: 'ATM', ...fields });
      return [r.status, r.body['status'], r.body['message']];
    };
    const offsetMsg = 'Offset must be ATM, ITM1-ITM50, or OTM1-OTM50';
    expect(await bad({ offset: 'ITM51' })).toEqual([400, 'error', offsetMsg]);
    expect(await bad({ offset: 'DEEP' })).toEqual([400, 'error', offsetMsg]);
    expect(await bad({ expiry_date: '17NOV26' })).toEqual([
      400,
      'error',
      'Expiry 17NOV26 has passed: NIFTY options expiring then are no longer listed',
    ]);
    expect((await bad({ expiry_date: '31FEB27' }))[0]).toBe(400);
    // 24-Nov is a holiday: the contract is listed as 23NOV26, so 24NOV26 names nothing.
    expect(await bad({ expiry_date: '24NOV26' })).toEqual([
      404,
      'error',
      'No NIFTY options expiring 24NOV26 found in NFO',
    ]);
    const ltp = gw.gateway.market.lastPrice(gw.instrument('NSE_INDEX', 'NIFTY'));
    const off = Math.round(ltp / 1) + 50;
    expect(await bad({ offset: 'OTM50', strike_int: 1 })).toEqual([
      404,
      'error',
      `Option symbol NIFTY${EXPIRY}${off}CE not found in NFO. Symbol may not exist or master contract needs update.`,
    ]);
    const r = await gw.api('optionsymbol', gw.apiKey, {
      underlying: 'NIFTY',
      exchange: 'NSE_INDEX',
      offset: 'ATM',
      option_type: 'CE',
    });
    expect(r.status).toBe(400);
    expect(String(r.body['message'])).toMatch(/expiry_date is required/);
  });

  it('refuses an offset past the end of the listed ladder, naming the strike it would be', async () => {
    // Stock ladders are short (NIFTY's 100 a side reach OTM50): RELIANCE's runs out first.
    const list = [
      ...new Set(
        gw.gateway.master
          .derivatives('NFO', 'RELIANCE')
          .filter((r) => r.kind === 'CE' && r.expiryDate === '2026-12-29')
          .map((r) => r.strike),
      ),
    ].sort((a, b) => a - b);
    const ltp = gw.gateway.market.lastPrice(gw.instrument('NSE', 'RELIANCE'));
    const above = list.length - 1 - list.indexOf(nearest(list, ltp));
    expect(above).toBeLessThan(50);
    const r = await gw.api('optionsymbol', gw.apiKey, {
      underlying: 'RELIANCE',
      exchange: 'NSE',
      expiry_date: '29DEC26',
      offset: `OTM${above + 1}`,
      option_type: 'CE',
    });
    expect(r.status).toBe(404);
    const last = list[list.length - 1] ?? 0;
    const step = last - (list[list.length - 2] ?? 0);
    expect(r.body['message']).toBe(
      `Option symbol RELIANCE29DEC26${last + step}CE not found in NFO. Symbol may not exist or master contract needs update.`,
    );
    // One step less is the last listed strike.
    const inside = await gw.api('optionsymbol', gw.apiKey, {
      underlying: 'RELIANCE',
      exchange: 'NSE',
      expiry_date: '29DEC26',
      offset: `OTM${above}`,
      option_type: 'CE',
    });
    expect(inside.body['symbol']).toBe(`RELIANCE29DEC26${last}CE`);
  });
});
