// The option endpoints of the paper gateway over real HTTP (gateway-behaviour §3.9, §3.10, §10):
// answers exact to the contract's sample shapes, offset resolution along the listed strikes, the
// greeks' sanity (IV recovers the simulator's volatility, delta bounds, put-call parity), orders
// placed on the resolved symbol, and upstream's refusals for an unknown offset, a passed expiry and
// a strike off the chain.
import { describe, expect, it } from 'vitest';
import {
  OptionChainResponse,
  OptionGreeksResponse,
  OptionSymbolResponse,
  OptionsMultiOrderResponse,
  OptionsOrderResponse,
  SyntheticFutureResponse,
} from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useEngineGateway } from '../../support/paper-gateway.js';

const gw = useEngineGateway();

/** The first NIFTY weekly after the moved 23-Nov expiry: a full strike ladder. */
const EXPIRY = '01DEC26';
const NIFTY = { underlying: 'NIFTY', exchange: 'NSE_INDEX', expiry_date: EXPIRY };

/** Listed NIFTY strikes of EXPIRY, ascending, from the master itself. */
function strikes(): number[] {
  const set = new Set<number>();
  for (const r of gw.gateway.master.derivatives('NFO', 'NIFTY')) {
    if (r.kind === 'CE' && r.expiryDate === '2026-12-01') set.add(r.strike);
  }
  return [...set].sort((a, b) => a - b);
}

function nearest(list: number[], x: number): number {
  return list.reduce((best, k) => (Math.abs(k - x) < Math.abs(best - x) ? k : best), list[0] ?? 0);
}

async function optionSymbol(fields: Record<string, unknown>) {
  return gw.api('optionsymbol', gw.apiKey, { ...NIFTY, ...fields });
}

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

describe('optionchain', () => {
  it('strike_count strikes either side of ATM, labelled per side, with quotes and greeks', async () => {
    const r = await gw.api('optionchain', gw.apiKey, { ...NIFTY, strike_count: 3, with_greeks: true });
    expect(r.status).toBe(200);
    const body = expectExact(OptionChainResponse, r.json);
    expect(body.chain).toHaveLength(7);
    const atmRow = body.chain[3];
    expect(atmRow?.strike).toBe(body.atm_strike);
    expect([atmRow?.ce?.label, atmRow?.pe?.label]).toEqual(['ATM', 'ATM']);
    expect([body.chain[0]?.ce?.label, body.chain[0]?.pe?.label]).toEqual(['ITM3', 'OTM3']);
    expect([body.chain[6]?.ce?.label, body.chain[6]?.pe?.label]).toEqual(['OTM3', 'ITM3']);
    expect(body).toMatchObject({
      underlying: 'NIFTY',
      expiry_date: EXPIRY,
      quotes_included: true,
      greeks_included: true,
    });
    for (const row of body.chain) {
      const ce = row.ce;
      const pe = row.pe;
      if (!ce || !pe) throw new Error(`strike ${row.strike} lacks a side`);
      expect(ce.symbol).toBe(`NIFTY${EXPIRY}${row.strike}CE`);
      expect(ce.ltp).toBe(gw.gateway.market.lastPrice(gw.instrument('NFO', ce.symbol)));
      expect(ce.bid).toBeLessThanOrEqual(ce.ask ?? 0);
      expect(ce.delta).toBeGreaterThan(0);
      expect(ce.delta).toBeLessThan(1);
      expect(pe.delta).toBeLessThan(0);
      expect(pe.delta).toBeGreaterThan(-1);
      // Same strike, same model: call delta − put delta = 1 (up to the IVs of tick-rounded prices).
      expect((ce.delta ?? 0) - (pe.delta ?? 0)).toBeCloseTo(1, 1);
    }
    // Calls lose value as the strike rises, puts gain.
    const ce = body.chain.map((x) => x.ce?.ltp ?? 0);
    expect([...ce].sort((a, b) => b - a)).toEqual(ce);
  });

  it('with a strike_int off the ladder the window still centres on the nearest listed strike', async () => {
    const r = await gw.api('optionchain', gw.apiKey, { ...NIFTY, strike_count: 2, strike_int: 7 });
    expect(r.status).toBe(200);
    const body = expectExact(OptionChainResponse, r.json);
    const ltp = gw.gateway.market.lastPrice(gw.instrument('NSE_INDEX', 'NIFTY'));
    expect(body.atm_strike).toBe(Math.round(ltp / 7) * 7);
    expect(body.chain).toHaveLength(5);
    expect(body.chain[2]?.strike).toBe(nearest(strikes(), body.atm_strike));
    expect(body.chain[2]?.ce?.label).toBe('ATM');
  });

  it('without with_greeks the legs carry quotes only', async () => {
    const r = await gw.api('optionchain', gw.apiKey, { ...NIFTY, strike_count: 1 });
    const body = expectExact(OptionChainResponse, r.json);
    expect(body.greeks_included).toBe(false);
    expect(body.chain[1]?.ce).not.toHaveProperty('delta');
  });

  it('refuses a strike_count over 100 and a passed expiry', async () => {
    const a = await gw.api('optionchain', gw.apiKey, { ...NIFTY, strike_count: 101 });
    expect([a.status, a.body['message']]).toEqual([400, 'strike_count must be at most 100']);
    const b = await gw.api('optionchain', gw.apiKey, { ...NIFTY, expiry_date: '10NOV26' });
    expect(b.status).toBe(400);
  });
});

describe('optiongreeks', () => {
  it('recovers the simulator volatility at the money, with sane greeks', async () => {
    const sym = (await optionSymbol({ offset: 'ATM', option_type: 'CE' })).body['symbol'] as string;
    const r = await gw.api('optiongreeks', gw.apiKey, { symbol: sym, exchange: 'NFO' });
    expect(r.status).toBe(200);
    const g = expectExact(OptionGreeksResponse, r.json);
    const vol = gw.gateway.master.underlyings.get('NSE_INDEX:NIFTY')?.volatility ?? 0;
    // The price is rounded to the tick and the simulator fixes time to expiry per day: close, not equal.
    expect(Math.abs(g.implied_volatility - vol * 100)).toBeLessThan(1);
    expect(g.greeks.delta).toBeGreaterThan(0.3);
    expect(g.greeks.delta).toBeLessThan(0.7);
    expect(g.greeks.gamma).toBeGreaterThan(0);
    expect(g.greeks.vega).toBeGreaterThan(0);
    expect(g.greeks.theta).toBeLessThan(0);
    expect(g).toMatchObject({
      underlying: 'NIFTY',
      option_type: 'CE',
      expiry_date: '01-Dec-2026',
      interest_rate: 6.5,
    });
    expect(g.days_to_expiry).toBeGreaterThan(11);
    expect(g.days_to_expiry).toBeLessThan(11.3);
  });

  it('prices satisfy put-call parity C − P = S − K·e^(−rτ) within a few ticks', async () => {
    const ce = (await optionSymbol({ offset: 'OTM2', option_type: 'CE' })).body['symbol'] as string;
    const pe = ce.replace(/CE$/, 'PE');
    const a = expectExact(
      OptionGreeksResponse,
      (await gw.api('optiongreeks', gw.apiKey, { symbol: ce, exchange: 'NFO' })).json,
    );
    const b = expectExact(
      OptionGreeksResponse,
      (await gw.api('optiongreeks', gw.apiKey, { symbol: pe, exchange: 'NFO' })).json,
    );
    const tau = a.days_to_expiry / 365;
    const parity = a.spot_price - a.strike * Math.exp(-0.065 * tau);
    expect(Math.abs(a.option_price - b.option_price - parity)).toBeLessThan(2);
  });

  it('refuses an unknown symbol, a non-option and a malformed expiry_time', async () => {
    const a = await gw.api('optiongreeks', gw.apiKey, { symbol: 'NIFTY01DEC2699999CE', exchange: 'NFO' });
    expect([a.status, a.body['message']]).toEqual([
      404,
      'Symbol NIFTY01DEC2699999CE not found in exchange NFO',
    ]);
    const b = await gw.api('optiongreeks', gw.apiKey, { symbol: 'NIFTY29DEC26FUT', exchange: 'NFO' });
    expect(b.body['message']).toBe('NIFTY29DEC26FUT is not an option: greeks need a CE or PE symbol');
    expect(b.status).toBe(400);
    const sym = (await optionSymbol({ offset: 'ATM', option_type: 'CE' })).body['symbol'] as string;
    const c = await gw.api('optiongreeks', gw.apiKey, { symbol: sym, exchange: 'NFO', expiry_time: '25:00' });
    expect([c.status, c.body['message']]).toEqual([400, 'expiry_time must be HH:MM (e.g. 15:30)']);
  });
});

describe('syntheticfuture', () => {
  it('is ATM strike + call − put at that strike', async () => {
    const r = await gw.api('syntheticfuture', gw.apiKey, NIFTY);
    expect(r.status).toBe(200);
    const s = expectExact(SyntheticFutureResponse, r.json);
    const m = gw.gateway.market;
    const ce = m.lastPrice(gw.instrument('NFO', `NIFTY${EXPIRY}${s.atm_strike}CE`));
    const pe = m.lastPrice(gw.instrument('NFO', `NIFTY${EXPIRY}${s.atm_strike}PE`));
    expect(s.synthetic_future_price).toBeCloseTo(s.atm_strike + ce - pe, 6);
    expect(s).toMatchObject({ underlying: 'NIFTY', expiry: EXPIRY });
  });
});

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
