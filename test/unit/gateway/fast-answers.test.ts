import { describe, expect, it } from 'vitest';
import { SearchResponse, TickerResponse } from '../../../src-main/contract/index.js';
import { searchAnswerAsIs, tickerAnswerAsIs } from '../../../src-main/gateway/fast-answers.js';

const row = (strike: number, extra: Record<string, unknown> = {}) => ({
  symbol: `NIFTY30DEC25${strike}CE`,
  brsymbol: `NIFTY30DEC25${strike}CE`,
  name: 'NIFTY',
  exchange: 'NFO',
  brexchange: 'NFO',
  token: String(40_000 + strike),
  expiry: '30-DEC-25',
  strike,
  lotsize: 75,
  instrumenttype: 'CE',
  tick_size: 0.05,
  ...extra,
});

const answer = (data: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 'success',
  message: 'Found',
  data,
  ...extra,
});

describe('searchAnswerAsIs', () => {
  it('gives what the schema gives for rows already in its form, extra fields and all', () => {
    const json = answer(
      [row(25_000), row(25_050, { freeze_qty: 1800 }), row(25_100, { segment: 'NFO-OPT' })],
      { took_ms: 3 },
    );
    const fast = searchAnswerAsIs(json);
    expect(fast).toBeDefined();
    expect(fast).toEqual(SearchResponse.parse(json));
    // The answer's own extra field goes, as the schema drops it.
    expect(fast).not.toHaveProperty('took_ms');
  });

  it('takes an empty answer as it is', () => {
    expect(searchAnswerAsIs(answer([]))).toEqual({ status: 'success', message: 'Found', data: [] });
  });

  it.each([
    ['a numeric string strike', { strike: '25000' }],
    ['a null lot size', { lotsize: null }],
    ['a missing tick size', { tick_size: undefined }],
    ['a numeric token', { token: 40_001 }],
    ['a null symbol', { symbol: null }],
    ['a string freeze quantity', { freeze_qty: '1800' }],
  ])('leaves a row with %s to the schema', (_what, change) => {
    const r: Record<string, unknown> = { ...row(25_000), ...change };
    for (const k of Object.keys(r)) if (r[k] === undefined) delete r[k];
    expect(searchAnswerAsIs(answer([row(24_950), r]))).toBeUndefined();
  });

  it.each([
    ['an error status', { status: 'error' }],
    ['no message', { message: undefined }],
    ['data not a list', { data: { symbol: 'NIFTY' } }],
  ])('leaves an answer with %s to the schema', (_what, change) => {
    const json: Record<string, unknown> = { ...answer([row(25_000)]), ...change };
    for (const k of Object.keys(json)) if (json[k] === undefined) delete json[k];
    expect(searchAnswerAsIs(json)).toBeUndefined();
  });

  it('leaves a row that is not an object to the schema', () => {
    expect(searchAnswerAsIs(answer([row(25_000), 'NIFTY']))).toBeUndefined();
    expect(searchAnswerAsIs(answer([[row(25_000)]]))).toBeUndefined();
  });
});

const bar = (i: number, extra: Record<string, unknown> = {}) => ({
  timestamp: 1_764_300_000 + i * 60,
  open: 812.5 + i * 0.05,
  high: 813.1,
  low: 811.95,
  close: 812.8,
  volume: 1_200 + i,
  ...extra,
});

describe('tickerAnswerAsIs', () => {
  it('gives what the schema gives for bars already in its form', () => {
    const json = { status: 'success', data: [bar(0), bar(1, { oi: 12_000 }), bar(2, { vwap: 812.6 })], x: 1 };
    const fast = tickerAnswerAsIs(json);
    expect(fast).toBeDefined();
    expect(fast).toEqual(TickerResponse.parse(json));
    expect(fast).not.toHaveProperty('x');
  });

  it.each([
    ['a millisecond timestamp (the schema turns it to seconds)', { timestamp: 1_764_300_000_000 }],
    ['a date text timestamp', { timestamp: '2026-11-28 09:15:00' }],
    ['a fractional volume (the schema rounds it)', { volume: 10.5 }],
    ['a numeric string price', { close: '812.80' }],
    ['a null price', { open: null }],
    ['a missing volume', { volume: undefined }],
    ['a string open interest', { oi: '12000' }],
  ])('leaves a bar with %s to the schema', (_what, change) => {
    const b: Record<string, unknown> = { ...bar(1), ...change };
    for (const k of Object.keys(b)) if (b[k] === undefined) delete b[k];
    expect(tickerAnswerAsIs({ status: 'success', data: [bar(0), b] })).toBeUndefined();
  });

  it('leaves an error or a malformed answer to the schema', () => {
    expect(tickerAnswerAsIs({ status: 'error', data: [] })).toBeUndefined();
    expect(tickerAnswerAsIs({ status: 'success', data: 'none' })).toBeUndefined();
    expect(tickerAnswerAsIs(null)).toBeUndefined();
  });
});
