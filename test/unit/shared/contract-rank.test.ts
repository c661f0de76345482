// The order of a search answer's derivatives: nearest expiry (by date), then strike, calls before
// puts, each underlying's futures and options gathered where their first row stood.
import { describe, expect, it } from 'vitest';
import {
  exactFirst,
  expiryKey,
  rankByExpiry,
  sortExpiries,
  type RankedRow,
} from '../../../src-main/shared/contract-rank.js';

const fut = (name: string, expiry: string, exchange = 'NFO'): RankedRow => ({
  symbol: `${name}${expiry.replace(/-/g, '')}FUT`,
  exchange,
  name,
  expiry,
  strike: 0,
});
const opt = (name: string, expiry: string, strike: number, type: 'CE' | 'PE'): RankedRow => ({
  symbol: `${name}${expiry.replace(/-/g, '')}${strike}${type}`,
  exchange: 'NFO',
  name,
  expiry,
  strike,
});
const cash = (symbol: string, exchange = 'NSE'): RankedRow => ({
  symbol,
  exchange,
  name: symbol,
  expiry: '',
  strike: -0.01,
});
const symbols = (rows: readonly RankedRow[]) => rows.map((r) => r.symbol);

describe('expiryKey', () => {
  it('reads DD-MMM-YY, DDMMMYY, DD MMM YY, four-digit years and ISO dates as one date', () => {
    for (const text of ['30-DEC-25', '30DEC25', '30 DEC 25', '30-dec-2025', '2025-12-30'])
      expect(expiryKey(text), text).toBe(20251230);
  });

  it('orders by date, not by text: 30 DEC 25 < 27 JAN 26 < 24 FEB 26', () => {
    const keys = ['24-FEB-26', '27-JAN-26', '30-DEC-25'].map((e) => expiryKey(e) as number);
    expect([...keys].sort((a, b) => a - b)).toEqual([20251230, 20260127, 20260224]);
  });

  it('is null for anything that is not an expiry', () => {
    for (const text of ['', 'DEC', '32-DEC-25', '30-XYZ-25', 'NIFTY'])
      expect(expiryKey(text), text).toBeNull();
  });

  it('sortExpiries puts the nearest first and unreadable ones last', () => {
    expect(sortExpiries(['24-FEB-26', 'later', '27-JAN-26', '30-DEC-25'])).toEqual([
      '30-DEC-25',
      '27-JAN-26',
      '24-FEB-26',
      'later',
    ]);
  });
});

describe('rankByExpiry', () => {
  it('nifty fut: 23 FEB, 26 JAN, 29 DEC (text order) becomes 29 DEC, 26 JAN, 23 FEB per underlying', () => {
    const rows = [
      fut('NIFTY', '23-FEB-27'),
      fut('NIFTY', '26-JAN-27'),
      fut('NIFTY', '29-DEC-26'),
      fut('FINNIFTY', '23-FEB-27'),
      fut('FINNIFTY', '29-DEC-26'),
      fut('BANKNIFTY', '26-JAN-27'),
      fut('BANKNIFTY', '29-DEC-26'),
    ];
    expect(symbols(rankByExpiry(rows))).toEqual([
      'NIFTY29DEC26FUT',
      'NIFTY26JAN27FUT',
      'NIFTY23FEB27FUT',
      'FINNIFTY29DEC26FUT',
      'FINNIFTY23FEB27FUT',
      'BANKNIFTY29DEC26FUT',
      'BANKNIFTY26JAN27FUT',
    ]);
  });

  it('options: by expiry, then strike, the call before the put', () => {
    const rows = [
      opt('NIFTY', '01-DEC-26', 26000, 'PE'),
      opt('NIFTY', '05-JAN-27', 25000, 'CE'),
      opt('NIFTY', '08-DEC-26', 25000, 'CE'),
      opt('NIFTY', '01-DEC-26', 26000, 'CE'),
      opt('NIFTY', '01-DEC-26', 25500, 'PE'),
    ];
    expect(symbols(rankByExpiry(rows))).toEqual([
      'NIFTY01DEC2625500PE',
      'NIFTY01DEC2626000CE',
      'NIFTY01DEC2626000PE',
      'NIFTY08DEC2625000CE',
      'NIFTY05JAN2725000CE',
    ]);
  });

  it('equities keep their place ahead of their derivatives; futures and options stay apart', () => {
    const rows = [
      cash('SBIN'),
      cash('SBIN', 'BSE'),
      fut('SBIN', '23-FEB-27'),
      fut('SBIN', '29-DEC-26'),
      opt('SBIN', '26-JAN-27', 800, 'CE'),
      opt('SBIN', '29-DEC-26', 800, 'CE'),
      cash('SBICARD'),
    ];
    expect(symbols(rankByExpiry(rows))).toEqual([
      'SBIN',
      'SBIN',
      'SBIN29DEC26FUT',
      'SBIN23FEB27FUT',
      'SBIN29DEC26800CE',
      'SBIN26JAN27800CE',
      'SBICARD',
    ]);
  });

  it('never mixes tiers: an exact symbol match stays first, even a far expiry', () => {
    const rows = [fut('NIFTY', '23-FEB-27'), fut('NIFTY', '29-DEC-26')];
    expect(symbols(rankByExpiry(rows, { tier: exactFirst(' nifty23feb27fut ') }))).toEqual([
      'NIFTY23FEB27FUT',
      'NIFTY29DEC26FUT',
    ]);
    // A lower tier moves ahead even when the answer listed it later.
    expect(symbols(rankByExpiry([cash('SBICARD'), cash('SBIN')], { tier: exactFirst('sbin') }))).toEqual([
      'SBIN',
      'SBICARD',
    ]);
  });

  it('the same underlying on two exchanges ranks apart; unreadable expiries keep their place', () => {
    const rows = [
      fut('GOLD', '05-FEB-27', 'MCX'),
      fut('GOLD', '05-DEC-26', 'MCX'),
      { ...fut('GOLD', 'soon', 'XYZ'), symbol: 'GOLDSOONFUT' },
      fut('GOLD', '05-JAN-27', 'MCX'),
    ];
    expect(symbols(rankByExpiry(rows))).toEqual([
      'GOLD05DEC26FUT',
      'GOLD05JAN27FUT',
      'GOLD05FEB27FUT',
      'GOLDSOONFUT',
    ]);
  });

  it('keeps every row exactly once and leaves the input as it was', () => {
    const rows = [fut('NIFTY', '23-FEB-27'), cash('NIFTY', 'NSE_INDEX'), fut('NIFTY', '29-DEC-26')];
    const before = symbols(rows);
    const got = rankByExpiry(rows);
    expect(symbols(rows)).toEqual(before);
    expect([...symbols(got)].sort()).toEqual([...before].sort());
  });
});
