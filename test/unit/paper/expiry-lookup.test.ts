import { describe, expect, it } from 'vitest';
import { formatExpiry, parseExpiry, weekdayOf } from '../../../src-main/paper/instruments/calendar.js';
import { listExpiries } from '../../../src-main/paper/instruments/expiry.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../src-main/paper/instruments/master.js';

const TODAY = '2026-11-23';
const master = buildMaster({ seed: 42, today: TODAY });

/** The service's own algorithm (docs/gateway-behaviour.md 8.4) over the raw rows, for cross-checking. */
function serviceExpiries(
  symbol: string,
  exchange: string,
  type: 'futures' | 'options',
  today: string,
): string[] {
  const futures = ['FUTIDX', 'FUTSTK', 'FUTCOM', 'FUTCUR', 'FUT'];
  const options = ['OPTIDX', 'OPTSTK', 'OPTFUT', 'OPTCUR', 'CE', 'PE'];
  const wanted = type === 'futures' ? futures : options;
  const re = new RegExp(`^${symbol}\\d\\d[A-Z]{3}\\d\\d`);
  const dates = new Set<string>();
  for (const r of byExchange.get(exchange) ?? []) {
    if (r.exchange !== exchange || !r.expiry || !wanted.includes(r.instrumenttype)) continue;
    if (!r.symbol.startsWith(symbol) || !re.test(r.symbol)) continue;
    const iso = parseExpiry(r.expiry);
    if (iso && iso >= today) dates.add(iso);
  }
  return [...dates].sort().map(formatExpiry);
}

const byExchange = new Map<string, Instrument[]>();
for (const r of master.all) {
  if (!r.expiry) continue;
  const list = byExchange.get(r.exchange) ?? [];
  list.push(r);
  byExchange.set(r.exchange, list);
}

describe('expiry lookup', () => {
  it('lists NIFTY weekly, monthly and long-dated option expiries, earliest first', () => {
    const got = listExpiries(master, {
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'options',
      today: TODAY,
    });
    expect(got.slice(0, 4)).toEqual(['23-NOV-26', '01-DEC-26', '08-DEC-26', '15-DEC-26']);
    expect(got).toContain('26-JAN-27');
    expect(got).toContain('30-MAR-27');
    const isos = got.map((e) => parseExpiry(e) as string);
    expect(isos).toEqual([...isos].sort());
    // Tuesdays, except 24-Nov (an NSE holiday) moved to the Monday before.
    expect(isos.every((d) => d >= TODAY && (weekdayOf(d) === 2 || d === '2026-11-23'))).toBe(true);
  });

  it('lists three monthly futures', () => {
    expect(
      listExpiries(master, { symbol: 'NIFTY', exchange: 'NFO', instrumenttype: 'futures', today: TODAY }),
    ).toEqual(['23-NOV-26', '29-DEC-26', '26-JAN-27']);
    expect(
      listExpiries(master, { symbol: 'RELIANCE', exchange: 'NFO', instrumenttype: 'futures', today: TODAY }),
    ).toEqual(['23-NOV-26', '29-DEC-26', '26-JAN-27']);
    expect(
      listExpiries(master, { symbol: 'SENSEX', exchange: 'BFO', instrumenttype: 'futures', today: TODAY }),
    ).toEqual(['26-NOV-26', '31-DEC-26', '28-JAN-27']);
  });

  it('matches the underlying exactly: NIFTY never picks up NIFTYNXT50 (or BANKNIFTY)', () => {
    const next50 = listExpiries(master, {
      symbol: 'NIFTYNXT50',
      exchange: 'NFO',
      instrumenttype: 'options',
      today: TODAY,
    });
    expect(next50).toEqual(['23-NOV-26', '29-DEC-26', '26-JAN-27']);
    const nifty = listExpiries(master, {
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'options',
      today: TODAY,
    });
    expect(nifty.length).toBeGreaterThan(next50.length);
    expect(
      listExpiries(master, { symbol: 'NIFT', exchange: 'NFO', instrumenttype: 'options', today: TODAY }),
    ).toEqual([]);
  });

  it('agrees with the service algorithm for every underlying, exchange and type', () => {
    const all = [...new Set(master.all.filter((r) => r.expiry).map((r) => `${r.exchange}|${r.name}`))];
    expect(all.length).toBeGreaterThan(150);
    // Every index, commodity and currency underlying, and a sample of the stocks (keeps the file fast).
    const stocks = all.filter((k) => master.get('NSE', k.split('|')[1] ?? '') !== undefined);
    const underlyings = [...all.filter((k) => !stocks.includes(k)), ...stocks.filter((_, i) => i % 15 === 0)];
    const later = '2026-12-10';
    for (const key of underlyings) {
      const [exchange, symbol] = key.split('|') as [string, string];
      for (const type of ['futures', 'options'] as const) {
        for (const today of [TODAY, later]) {
          expect(
            listExpiries(master, { symbol, exchange, instrumenttype: type, today }),
            `${key} ${type}`,
          ).toEqual(serviceExpiries(symbol, exchange, type, today));
        }
      }
    }
  });

  it('drops expiries before today', () => {
    const got = listExpiries(master, {
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'options',
      today: '2026-12-02',
    });
    expect(got[0]).toBe('08-DEC-26');
  });

  it('covers MCX and CDS', () => {
    const crude = listExpiries(master, {
      symbol: 'CRUDEOIL',
      exchange: 'MCX',
      instrumenttype: 'futures',
      today: TODAY,
    });
    expect(crude).toHaveLength(6);
    expect(
      listExpiries(master, { symbol: 'CRUDEOIL', exchange: 'MCX', instrumenttype: 'options', today: TODAY }),
    ).toHaveLength(3);
    const usd = listExpiries(master, {
      symbol: 'USDINR',
      exchange: 'CDS',
      instrumenttype: 'futures',
      today: TODAY,
    });
    expect(usd[0]).toBe('26-NOV-26');
    expect(
      listExpiries(master, { symbol: 'NICKEL', exchange: 'MCX', instrumenttype: 'options', today: TODAY }),
    ).toEqual([]);
  });

  it('accepts a lower-case symbol and returns [] for unknown symbols or unsupported exchanges', () => {
    expect(
      listExpiries(master, { symbol: 'banknifty', exchange: 'NFO', instrumenttype: 'futures', today: TODAY }),
    ).toHaveLength(3);
    expect(
      listExpiries(master, { symbol: 'NOPE', exchange: 'NFO', instrumenttype: 'futures', today: TODAY }),
    ).toEqual([]);
    expect(
      listExpiries(master, { symbol: 'RELIANCE', exchange: 'NSE', instrumenttype: 'futures', today: TODAY }),
    ).toEqual([]);
    expect(
      listExpiries(master, { symbol: 'NIFTY', exchange: 'BFO', instrumenttype: 'options', today: TODAY }),
    ).toEqual([]);
  });
});
