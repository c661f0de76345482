// The option endpoints of the paper gateway over real HTTP (gateway-behaviour §3.9, §3.10, §10):
// optionchain, optiongreeks (IV recovers the simulator's volatility, delta bounds, put-call parity)
// and syntheticfuture.
import { describe, expect, it } from 'vitest';
import {
  OptionChainResponse,
  OptionGreeksResponse,
  SyntheticFutureResponse,
} from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { EXPIRY, NIFTY, nearest, useOptionsGateway } from './options-fixture.js';

const { gw, strikes, optionSymbol } = useOptionsGateway();

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
