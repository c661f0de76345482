// The expiry endpoint of the paper gateway over real HTTP: its shape and every §7.3 message.
import { describe, expect, it } from 'vitest';
import { ExpiryResponse } from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';

const gw = useTestGateway();

describe('expiry (§4.17, §7.3)', () => {
  it('lists NIFTY option expiries chronologically, none before today', async () => {
    const r = await gw.post('/api/v1/expiry', {
      apikey: gw.apiKey,
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'options',
    });
    expect(r.status).toBe(200);
    expectExact(ExpiryResponse, r.json);
    const dates = r.body['data'] as string[];
    expect(dates.length).toBeGreaterThan(3);
    expect(r.body['message']).toBe(`Found ${dates.length} expiry dates for NIFTY options in NFO`);
    const parsed = dates.map((d) => {
      expect(d).toMatch(/^\d{2}-[A-Z]{3}-\d{2}$/);
      return Date.parse(d.replace(/-(\d{2})$/, '-20$1'));
    });
    expect([...parsed].sort((a, b) => a - b)).toEqual(parsed);
    expect(parsed[0]!).toBeGreaterThanOrEqual(Date.parse('2026-11-20'));
  });

  async function expiries(symbol: string, exchange: string, instrumenttype: string): Promise<string[]> {
    const r = await gw.post('/api/v1/expiry', { apikey: gw.apiKey, symbol, exchange, instrumenttype });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    return expectExact(ExpiryResponse, r.json).data;
  }
  /** An underlying's own expiries, from the master rows whose underlying name is exactly `name`. */
  function ownExpiries(name: string, exchange: string, futures: boolean): string[] {
    const dates = new Set<string>();
    for (const i of gw.gateway.master.all) {
      if (i.exchange === exchange && i.name === name && (i.kind === 'FUT') === futures && i.expiryDate)
        dates.add(i.expiryDate);
    }
    const fmt = (iso: string) => {
      const [y, m, d] = iso.split('-');
      const mon = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
      return `${d}-${mon[Number(m) - 1]}-${y!.slice(2)}`;
    };
    return [...dates].sort().map(fmt);
  }

  it('matches the underlying exactly: NIFTY vs NIFTYNXT50, and a prefix matches nothing', async () => {
    const nifty = await expiries('NIFTY', 'NFO', 'options');
    const next50 = await expiries('NIFTYNXT50', 'NFO', 'options');
    expect(nifty).toEqual(ownExpiries('NIFTY', 'NFO', false));
    expect(next50).toEqual(ownExpiries('NIFTYNXT50', 'NFO', false));
    // NIFTY has weeklies; NIFTYNXT50 only monthlies, so the two answers differ.
    expect(next50.length).toBeLessThan(nifty.length);
    expect(await expiries('NIFTY', 'NFO', 'futures')).toEqual(ownExpiries('NIFTY', 'NFO', true));
    // Prefixes of longer underlyings are not underlyings.
    for (const prefix of ['NIFTYNXT', 'NIFTYNXT5', 'BANK', 'NIFT', 'SENSEX5']) {
      for (const ex of ['NFO', 'BFO']) expect(await expiries(prefix, ex, 'options'), prefix).toEqual([]);
    }
  });

  it('matches the underlying exactly where the dates differ: MCX GOLD never picks up GOLDM', async () => {
    const gold = await expiries('GOLD', 'MCX', 'futures');
    const goldm = await expiries('GOLDM', 'MCX', 'futures');
    expect(gold).toEqual(ownExpiries('GOLD', 'MCX', true));
    const onlyGoldm = goldm.filter((d) => !gold.includes(d));
    expect(onlyGoldm.length, 'GOLDM has expiries GOLD does not').toBeGreaterThan(0);
    for (const d of onlyGoldm) expect(gold).not.toContain(d);
    expect(await expiries('gold', 'MCX', 'futures')).toEqual(gold);
  });

  it('no match is 200 success with [] and the §7.3 sentence', async () => {
    const r = await gw.post('/api/v1/expiry', {
      apikey: gw.apiKey,
      symbol: 'FOO',
      exchange: 'NFO',
      instrumenttype: 'futures',
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      status: 'success',
      message: 'No expiry dates found for FOO futures in NFO',
      data: [],
    });
  });

  const base = { symbol: 'NIFTY', exchange: 'NFO', instrumenttype: 'options' };
  it.each([
    [{ symbol: undefined }, 'Symbol parameter is required and cannot be empty'],
    [{ symbol: '  ' }, 'Symbol parameter is required and cannot be empty'],
    [{ exchange: undefined }, 'Exchange parameter is required and cannot be empty'],
    [{ exchange: '' }, 'Exchange parameter is required and cannot be empty'],
    [{ instrumenttype: undefined }, 'Instrumenttype parameter is required and cannot be empty'],
    [{ instrumenttype: '' }, 'Instrumenttype parameter is required and cannot be empty'],
    [{ instrumenttype: 'stocks' }, "Instrumenttype must be either 'futures' or 'options'"],
    [{ exchange: 'NSE' }, 'Exchange must be one of: NFO, BFO, MCX, CDS'],
  ])('%j → %s', async (patch, message) => {
    const r = await gw.post('/api/v1/expiry', { apikey: gw.apiKey, ...base, ...patch });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ status: 'error', message });
  });

  it.each(['BFO', 'MCX', 'CDS'])('%s answers for both instrument types', async (exchange) => {
    for (const instrumenttype of ['futures', 'options']) {
      const r = await gw.post('/api/v1/expiry', { apikey: gw.apiKey, symbol: 'X', exchange, instrumenttype });
      expect(r.status).toBe(200);
      expectExact(ExpiryResponse, r.json);
    }
  });
});
