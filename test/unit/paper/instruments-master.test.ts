import { describe, expect, it } from 'vitest';
import { buildRows } from '../../../src-main/paper/instruments/build-rows.js';
import { addDays, istToday, parseExpiry, weekdayOf } from '../../../src-main/paper/instruments/calendar.js';
import type { Instrument, InstrumentMaster } from '../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../src-main/paper/instruments/master.js';

const TODAY = '2026-11-23';
const started = performance.now();
const master = buildMaster({ seed: 42, today: TODAY });
const firstBuildMs = performance.now() - started;

const FUT_RE = /^([A-Z0-9&-]+?)(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2})FUT$/;
const OPT_RE =
  /^([A-Z0-9&-]+?)(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2})(\d+(?:\.\d+)?)(CE|PE)$/;
const EXPIRY_RE = /^\d{2}-(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)-\d{2}$/;

function countBy(rows: readonly Instrument[], key: (r: Instrument) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
  return m;
}

function firstOf(m: InstrumentMaster, exchange: string, name: string, kind: Instrument['kind']): Instrument {
  const row = m.derivatives(exchange, name).find((r) => r.kind === kind);
  if (!row) throw new Error(`no ${kind} for ${exchange}:${name}`);
  return row;
}

describe('instrument master: size and shape', () => {
  it('holds at least 100k instruments across every exchange, built quickly', () => {
    const counts = countBy(master.all, (r) => r.exchange);
    expect(master.all.length).toBeGreaterThanOrEqual(100_000);
    expect(counts.get('NSE')).toBeGreaterThanOrEqual(150);
    expect(counts.get('BSE')).toBe(counts.get('NSE'));
    expect(counts.get('NSE_INDEX')).toBeGreaterThanOrEqual(15);
    expect(counts.get('BSE_INDEX')).toBeGreaterThanOrEqual(3);
    expect(counts.get('NFO')).toBeGreaterThan(90_000);
    expect(counts.get('BFO')).toBeGreaterThan(2_000);
    expect(counts.get('MCX')).toBeGreaterThan(2_000);
    expect(counts.get('CDS')).toBeGreaterThan(500);
    // Well under 2 s on an idle machine (~0.3 s); the bound leaves room for a loaded CI box.
    expect(firstBuildMs).toBeLessThan(4_000);
  });

  it('numbers rows 1..n in order, with unique symbols and tokens per exchange', () => {
    expect(master.all.filter((r, i) => r.id !== i + 1)).toEqual([]);
    expect(new Set(master.all.map((r) => `${r.exchange}|${r.symbol}`)).size).toBe(master.all.length);
    expect(new Set(master.all.map((r) => `${r.exchange}|${r.token}`)).size).toBe(master.all.length);
    expect(master.all.filter((r) => !/^\d+$/.test(r.token))).toEqual([]);
  });

  it('finds rows by (exchange, symbol) and derivatives by exact underlying name', () => {
    for (const r of [master.all[0], master.all[5000], master.all[master.all.length - 1]]) {
      expect(master.get(r!.exchange, r!.symbol)).toBe(r);
    }
    expect(master.get('NSE', 'NOPE')).toBeUndefined();
    expect(master.get('XYZ', 'RELIANCE')).toBeUndefined();
    const nifty = master.derivatives('NFO', 'NIFTY');
    expect(nifty.length).toBeGreaterThan(4_000);
    expect(nifty.every((r) => r.name === 'NIFTY' && r.exchange === 'NFO')).toBe(true);
    expect(nifty.some((r) => r.symbol.startsWith('NIFTYNXT50'))).toBe(false);
    expect(master.derivatives('NFO', 'NIFTYNXT50').length).toBeGreaterThan(0);
    expect(master.derivatives('BFO', 'NIFTY')).toEqual([]);
  });

  it('points every row at a known underlying; F&O stocks and BSE equities share the NSE series', () => {
    expect(master.all.filter((r) => !master.underlyings.has(r.underlyingKey))).toEqual([]);
    expect(master.get('BSE', 'RELIANCE')?.underlyingKey).toBe('NSE:RELIANCE');
    expect(firstOf(master, 'NFO', 'RELIANCE', 'CE').underlyingKey).toBe('NSE:RELIANCE');
    expect(firstOf(master, 'NFO', 'NIFTY', 'FUT').underlyingKey).toBe('NSE_INDEX:NIFTY');
    expect(firstOf(master, 'BFO', 'SENSEX', 'PE').underlyingKey).toBe('BSE_INDEX:SENSEX');
    expect(firstOf(master, 'MCX', 'CRUDEOILM', 'FUT').underlyingKey).toBe('MCX:CRUDEOIL');
    expect(firstOf(master, 'CDS', 'USDINR', 'CE').underlyingKey).toBe('CDS:USDINR');
    for (const u of master.underlyings.values()) {
      expect(u.basePrice).toBeGreaterThan(0);
      expect(u.volatility).toBeGreaterThan(0);
      expect(u.volatility).toBeLessThan(1);
      const ticks = u.basePrice / u.tickSize;
      expect(Math.abs(ticks - Math.round(ticks))).toBeLessThan(1e-6);
    }
    // No row for hidden MCX/CDS spot series.
    expect(master.get('MCX', 'CRUDEOIL')).toBeUndefined();
  });

  it('shares frozen rows but hands each caller its own underlyings', () => {
    const again = buildMaster({ seed: 42, today: TODAY });
    expect(again.all).toBe(master.all);
    expect(Object.isFrozen(master.all[0])).toBe(true);
    const u = again.underlyings.get('NSE:RELIANCE');
    expect(u).toBeDefined();
    u!.basePrice = 1;
    expect(master.underlyings.get('NSE:RELIANCE')?.basePrice).not.toBe(1);
  });
});

describe('instrument master: symbols and fields', () => {
  it('formats equities and indices like the samples', () => {
    expect(master.get('NSE', 'RELIANCE')).toMatchObject({
      symbol: 'RELIANCE',
      brsymbol: 'RELIANCE-EQ',
      exchange: 'NSE',
      brexchange: 'NSE',
      expiry: '',
      expiryDate: null,
      strike: -0.01,
      lotsize: 1,
      instrumenttype: '',
      tickSize: 0.05,
      kind: 'EQ',
    });
    expect(master.get('BSE', 'BAJAJ-AUTO')).toMatchObject({ brsymbol: 'BAJAJ-AUTO', brexchange: 'BSE' });
    expect(master.get('NSE', 'M&M')?.name).toBe('MAHINDRA & MAHINDRA LTD');
    for (const [ex, sym] of [
      ['NSE_INDEX', 'NIFTY'],
      ['NSE_INDEX', 'BANKNIFTY'],
      ['NSE_INDEX', 'INDIAVIX'],
      ['BSE_INDEX', 'SENSEX'],
      ['BSE_INDEX', 'BANKEX'],
    ] as const) {
      expect(master.get(ex, sym)).toMatchObject({
        instrumenttype: 'INDEX',
        kind: 'INDEX',
        lotsize: 1,
        strike: -0.01,
        brexchange: ex,
      });
    }
  });

  it('formats futures as <UNDERLYING><DDMMMYY>FUT with matching expiry fields', () => {
    const futures = master.all.filter((r) => r.kind === 'FUT');
    expect(futures.length).toBeGreaterThan(500);
    const bad = futures.filter((r) => {
      const m = FUT_RE.exec(r.symbol);
      return (
        !m ||
        m[1] !== r.name ||
        r.expiry !== `${m[2]}-${m[3]}-${m[4]}` ||
        parseExpiry(r.expiry) !== r.expiryDate ||
        r.brsymbol !== `${r.name} FUT ${m[2]} ${m[3]} ${m[4]}` ||
        r.strike !== 0
      );
    });
    expect(bad).toEqual([]);
    const nifty = master.derivatives('NFO', 'NIFTY').filter((r) => r.kind === 'FUT');
    expect(nifty.map((r) => r.symbol)).toEqual(['NIFTY23NOV26FUT', 'NIFTY29DEC26FUT', 'NIFTY26JAN27FUT']);
    expect(nifty[0]).toMatchObject({
      brsymbol: 'NIFTY FUT 23 NOV 26',
      brexchange: 'NSE_FO',
      instrumenttype: 'FUTIDX',
      tickSize: 0.1,
    });
  });

  it('formats options as <UNDERLYING><DDMMMYY><STRIKE><CE|PE>, fractional strikes keeping the decimal', () => {
    let fractional = 0;
    const bad: string[] = [];
    for (const r of master.all) {
      if (r.kind !== 'CE' && r.kind !== 'PE') continue;
      const m = OPT_RE.exec(r.symbol);
      const ok =
        m !== null &&
        m[1] === r.name &&
        Number(m[5]) === r.strike &&
        !/\.0*$|^0\d/.test(m[5] ?? '') &&
        m[6] === r.kind &&
        r.expiry === `${m[2]}-${m[3]}-${m[4]}` &&
        r.brsymbol === `${r.name} ${m[5]} ${r.kind} ${m[2]} ${m[3]} ${m[4]}`;
      if (!ok) bad.push(r.symbol);
      if (!Number.isInteger(r.strike)) fractional++;
    }
    expect(bad).toEqual([]);
    expect(fractional).toBeGreaterThan(100);
    expect(master.derivatives('NFO', 'TATASTEEL').some((r) => /\d\.5(CE|PE)$/.test(r.symbol))).toBe(true);
    expect(
      master.get('CDS', 'USDINR26NOV2688.25CE') ?? master.get('CDS', 'USDINR26NOV2688.5CE'),
    ).toBeDefined();
    const opt = master.get('NFO', 'NIFTY29DEC2626000CE');
    expect(opt).toMatchObject({
      brsymbol: 'NIFTY 26000 CE 29 DEC 26',
      expiry: '29-DEC-26',
      expiryDate: '2026-12-29',
      strike: 26000,
      lotsize: 65,
      instrumenttype: 'OPTIDX',
      freezeQty: 1800,
      tickSize: 0.05,
    });
  });

  it('uses the reference lot sizes and freeze quantities', () => {
    const lot = (ex: string, name: string) => firstOf(master, ex, name, 'FUT');
    expect(lot('NFO', 'NIFTY')).toMatchObject({ lotsize: 65, freezeQty: 1800 });
    expect(lot('NFO', 'BANKNIFTY')).toMatchObject({ lotsize: 30, freezeQty: 600 });
    expect(lot('NFO', 'FINNIFTY')).toMatchObject({ lotsize: 60, freezeQty: 1200 });
    expect(lot('NFO', 'MIDCPNIFTY')).toMatchObject({ lotsize: 120, freezeQty: 2800 });
    expect(lot('NFO', 'NIFTYNXT50')).toMatchObject({ lotsize: 25, freezeQty: 600 });
    expect(lot('BFO', 'SENSEX').lotsize).toBe(20);
    expect(lot('BFO', 'BANKEX').lotsize).toBe(30);
    for (const [name, size] of [
      ['RELIANCE', 500],
      ['SBIN', 750],
      ['INFY', 400],
      ['TCS', 175],
      ['HDFCBANK', 550],
    ] as const) {
      const fut = lot('NFO', name);
      expect(fut.lotsize).toBe(size);
      expect(fut.instrumenttype).toBe('FUTSTK');
      expect(fut.freezeQty % size).toBe(0);
      expect(fut.freezeQty).toBeGreaterThanOrEqual(20 * size);
    }
    expect(lot('MCX', 'CRUDEOIL')).toMatchObject({ lotsize: 100, instrumenttype: 'FUTCOM', tickSize: 1 });
    expect(lot('CDS', 'USDINR')).toMatchObject({ lotsize: 1, instrumenttype: 'FUTCUR', tickSize: 0.0025 });
    // Index freeze limits are not lot multiples (NIFTY 1800 / 65); stock and MCX ones are.
    expect(master.all.filter((r) => r.kind !== 'INDEX' && r.freezeQty < r.lotsize)).toEqual([]);
    const stockOrMcx = master.all.filter((r) => r.instrumenttype === 'OPTSTK' || r.exchange === 'MCX');
    expect(stockOrMcx.filter((r) => r.freezeQty % r.lotsize !== 0)).toEqual([]);
  });

  it('keeps tick sizes and strike ladders coherent', () => {
    const types = new Map<string, Set<string>>();
    const bad: string[] = [];
    for (const r of master.all) {
      if (!(r.tickSize > 0) || !(r.lotsize > 0)) bad.push(r.symbol);
      if (r.kind === 'EQ' || r.kind === 'INDEX') {
        if (r.strike !== -0.01 || r.expiry !== '') bad.push(r.symbol);
      } else if (!EXPIRY_RE.test(r.expiry) || (r.kind !== 'FUT' && !(r.strike > 0))) {
        bad.push(r.symbol);
      }
      const set = types.get(r.exchange) ?? new Set();
      set.add(r.instrumenttype);
      types.set(r.exchange, set);
    }
    expect(bad).toEqual([]);
    expect([...(types.get('NFO') ?? [])].sort()).toEqual(['FUTIDX', 'FUTSTK', 'OPTIDX', 'OPTSTK']);
    expect([...(types.get('BFO') ?? [])].sort()).toEqual(['FUTIDX', 'OPTIDX']);
    expect([...(types.get('MCX') ?? [])].sort()).toEqual(['FUTCOM', 'OPTFUT']);
    expect([...(types.get('CDS') ?? [])].sort()).toEqual(['FUTCUR', 'OPTCUR']);
    expect([...(types.get('NSE') ?? [])]).toEqual(['']);
    expect([...(types.get('NSE_INDEX') ?? [])]).toEqual(['INDEX']);

    // Each chain: evenly spaced strikes, CE and PE for every strike, bracketing the spot.
    const chains = new Map<string, Instrument[]>();
    for (const r of master.all) {
      if (r.kind !== 'CE' && r.kind !== 'PE') continue;
      const k = `${r.exchange}|${r.name}|${r.expiryDate}`;
      const list = chains.get(k) ?? [];
      list.push(r);
      chains.set(k, list);
    }
    expect(chains.size).toBeGreaterThan(500);
    for (const [k, list] of chains) {
      const ce = list.filter((r) => r.kind === 'CE').map((r) => r.strike);
      const pe = list.filter((r) => r.kind === 'PE').map((r) => r.strike);
      expect(ce, k).toEqual(pe);
      const steps = new Set(ce.slice(1).map((s, i) => Math.round((s - (ce[i] as number)) * 10_000) / 10_000));
      expect(steps.size, k).toBe(1);
      const spot = master.underlyings.get(list[0]!.underlyingKey)!.basePrice;
      expect(Math.min(...ce), k).toBeLessThanOrEqual(spot);
      expect(Math.max(...ce), k).toBeGreaterThanOrEqual(spot);
    }
    const niftyStep = master
      .derivatives('NFO', 'NIFTY')
      .filter((r) => r.expiryDate === '2026-12-01' && r.kind === 'CE');
    expect(niftyStep.length).toBe(201);
    expect(niftyStep[1]!.strike - niftyStep[0]!.strike).toBe(50);
  });
});

describe('instrument master: coverage (issue 2)', () => {
  const expiriesOf = (rows: readonly Instrument[]) => new Set(rows.map((r) => r.expiry));

  it('lists at least 150 real equities, each with its own company name, on NSE and BSE', () => {
    const nse = master.all.filter((r) => r.exchange === 'NSE');
    expect(nse.length).toBeGreaterThanOrEqual(150);
    expect(new Set(nse.map((r) => r.name)).size).toBe(nse.length);
    // Company names, not symbols: "STATE BANK OF INDIA", "RELIANCE INDUSTRIES LTD".
    expect(nse.filter((r) => r.name === r.symbol || !r.name.includes(' '))).toEqual([]);
    expect(master.get('NSE', 'SBIN')?.name).toBe('STATE BANK OF INDIA');
    for (const sym of ['RELIANCE', 'TCS', 'HDFCBANK', 'INFY', 'SBIN', 'ITC', 'LT', 'M&M', 'BAJAJ-AUTO'])
      expect(master.get('NSE', sym), sym).toBeDefined();
    expect(nse.filter((r) => master.get('BSE', r.symbol) === undefined)).toEqual([]);
  });

  it('NFO: index and stock futures on three monthly expiries; index weeklies, stock monthlies', () => {
    const nfo = master.all.filter((r) => r.exchange === 'NFO');
    const futExpiries = expiriesOf(nfo.filter((r) => r.kind === 'FUT'));
    expect([...futExpiries]).toEqual(['23-NOV-26', '29-DEC-26', '26-JAN-27']);
    const stockFutNames = new Set(nfo.filter((r) => r.instrumenttype === 'FUTSTK').map((r) => r.name));
    expect(stockFutNames.size).toBeGreaterThan(100);
    for (const name of stockFutNames) {
      const d = master.derivatives('NFO', name);
      expect([...expiriesOf(d.filter((r) => r.kind === 'FUT'))], name).toEqual([...futExpiries]);
      // Stock options only on the monthly expiries.
      const opt = [...expiriesOf(d.filter((r) => r.kind !== 'FUT'))];
      expect(
        opt.every((e) => futExpiries.has(e)),
        name,
      ).toBe(true);
    }
    const niftyOpt = expiriesOf(master.derivatives('NFO', 'NIFTY').filter((r) => r.kind !== 'FUT'));
    expect(niftyOpt.size).toBeGreaterThan(futExpiries.size + 3); // weeklies and long-dated
    for (const e of futExpiries) expect(niftyOpt.has(e), e).toBe(true);
  });

  it('BFO SENSEX and BANKEX, MCX and CDS each list futures and options (calls and puts)', () => {
    for (const [ex, name] of [
      ['BFO', 'SENSEX'],
      ['BFO', 'BANKEX'],
      ['MCX', 'CRUDEOIL'],
      ['MCX', 'GOLD'],
      ['MCX', 'SILVER'],
      ['CDS', 'USDINR'],
      ['CDS', 'EURINR'],
    ] as const) {
      const d = master.derivatives(ex, name);
      for (const kind of ['FUT', 'CE', 'PE'] as const)
        expect(d.filter((r) => r.kind === kind).length, `${ex} ${name} ${kind}`).toBeGreaterThan(0);
    }
  });
});

describe('instrument master: dates and determinism', () => {
  it('is a pure function of (seed, today)', () => {
    const a = buildRows(42, TODAY).rows;
    expect(a).toEqual(master.all);
    const other = buildMaster({ seed: 7, today: TODAY });
    expect(other.all.length).toBeGreaterThan(100_000);
    expect(other.underlyings.get('NSE_INDEX:NIFTY')?.basePrice).not.toBe(
      master.underlyings.get('NSE_INDEX:NIFTY')?.basePrice,
    );
  });

  it('lays out NSE expiries on Tuesdays and BSE expiries on Thursdays', () => {
    const nifty = new Set(
      master
        .derivatives('NFO', 'NIFTY')
        .map((r) => r.expiryDate ?? '')
        .sort(),
    );
    expect([...nifty].slice(0, 8)).toEqual([
      '2026-11-23', // Tuesday 24-Nov is an NSE holiday (Guru Nanak Jayanti): moved to Monday
      '2026-12-01',
      '2026-12-08',
      '2026-12-15',
      '2026-12-22',
      '2026-12-29',
      '2027-01-05',
      '2027-01-12',
    ]);
    expect(nifty.has('2027-01-26')).toBe(true); // third monthly, beyond the weeklies
    expect(nifty.has('2027-03-30')).toBe(true); // quarterly
    expect([...nifty].filter((d) => weekdayOf(d) !== 2)).toEqual(['2026-11-23']);
    expect(master.derivatives('BFO', 'SENSEX').filter((r) => weekdayOf(r.expiryDate ?? '') !== 4)).toEqual(
      [],
    );
    const bank = new Set(
      master
        .derivatives('NFO', 'BANKNIFTY')
        .filter((r) => r.kind === 'FUT')
        .map((r) => r.expiryDate),
    );
    expect([...bank]).toEqual(['2026-11-23', '2026-12-29', '2027-01-26']);
    const expiries = new Set(master.all.map((r) => r.expiryDate ?? '').filter((d) => d !== ''));
    expect([...expiries].filter((d) => [0, 6].includes(weekdayOf(d)))).toEqual([]);
  });

  it('never lists an expiry before today, whatever the date', () => {
    // Today's real date, an expiry Tuesday, a year end and a leap day.
    const dates = [istToday(), '2026-12-29', '2026-12-31', '2028-02-29'];
    for (const today of dates) {
      const m = buildMaster({ seed: 1, today });
      let min = '9999';
      for (const r of m.all) if (r.expiryDate && r.expiryDate < min) min = r.expiryDate;
      expect(min >= today, today).toBe(true);
      expect(m.all.length).toBeGreaterThanOrEqual(100_000);
    }
  });

  it('moves expiries with the date', () => {
    const later = buildMaster({ seed: 42, today: addDays(TODAY, 7) });
    expect(later.get('NFO', 'NIFTY23NOV26FUT')).toBeUndefined();
    expect(later.get('NFO', 'NIFTY23FEB27FUT')).toBeDefined();
    expect(later.get('NSE', 'RELIANCE')?.token).toBe(master.get('NSE', 'RELIANCE')?.token);
  });

  it('rejects malformed dates', () => {
    expect(() => buildMaster({ seed: 1, today: '2026-13-01' })).toThrow();
    expect(() => buildMaster({ seed: 1, today: '23-11-2026' })).toThrow();
  });
});
