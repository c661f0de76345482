// The contract's one symbol schema: a symbol (or an underlying's name) holding NUL, CR, LF or any
// other control character is refused with a clear message, on every channel and gateway request that
// names an instrument; it is never trimmed into a different, valid-looking symbol.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CHANNELS,
  MarginRequest,
  OptionGreeksRequest,
  OptionSymbolRequest,
  OptionsOrderRequest,
  HistoryRequest,
  SymbolRiskOverride,
  WatchlistItem,
  WsSubscribe,
  symbolText,
  type Channel,
} from '../../../src-main/contract/index.js';

const CONTROL = /control character/;
const BAD = ['SBIN\r\n', 'SBIN\n', 'SB\u0000IN', 'SBIN\r', '\tSBIN', 'SBIN\u001b[31m', 'SBIN\u007f'];
const GOOD = ['SBIN', 'M&M', 'BAJAJ-AUTO', 'NIFTY28OCT2525000CE', '  SBIN  '];

function messages(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe('symbolText', () => {
  it('refuses NUL, CR, LF and the other control characters, saying so', () => {
    const schema = symbolText();
    for (const bad of BAD) {
      const r = schema.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(
        'symbol cannot contain control characters (such as NUL, CR or LF)',
      );
    }
  });

  it('accepts real symbols (trimmed), names its field and keeps the empty and length messages', () => {
    for (const good of GOOD) expect(symbolText().parse(good)).toBe(good.trim());
    expect(messages(symbolText('underlying'), 'NIFTY\n')).toEqual([
      'underlying cannot contain control characters (such as NUL, CR or LF)',
    ]);
    expect(messages(symbolText(), '  ')).toEqual(['symbol cannot be empty']);
    expect(messages(symbolText('symbol', 4), 'RELIANCE')).toEqual(['symbol must be at most 4 characters']);
    expect(messages(symbolText(), undefined)).toEqual(['symbol is required']);
  });
});

const LEG = { exchange: 'NSE', action: 'BUY', quantity: 1 };
/** A valid input for each channel that names an instrument, with the symbol put in by `s`. */
const CHANNEL_INPUTS: [Channel, (s: string) => unknown][] = [
  ['orders.place', (symbol) => ({ ...LEG, symbol })],
  ['orders.smart', (symbol) => ({ ...LEG, symbol, position_size: 0 })],
  ['orders.previewSmart', (symbol) => ({ ...LEG, symbol, position_size: 0 })],
  ['orders.split', (symbol) => ({ ...LEG, symbol, splitsize: 1 })],
  ['orders.previewSplit', (symbol) => ({ ...LEG, symbol, splitsize: 1 })],
  ['orders.basket', (symbol) => ({ orders: [{ ...LEG, symbol }] })],
  [
    'orders.modify',
    (symbol) => ({
      ...LEG,
      symbol,
      orderid: '1',
      pricetype: 'LIMIT',
      product: 'MIS',
      price: 1,
      trigger_price: 0,
      disclosed_quantity: 0,
    }),
  ],
  ['orders.openPosition', (symbol) => ({ symbol, exchange: 'NSE', product: 'MIS' })],
  ['books.positionsOpen', (symbol) => ({ symbol, exchange: 'NSE', product: 'MIS' })],
  ['market.depth', (symbol) => ({ symbol, exchange: 'NSE' })],
  ['market.quotes', (symbol) => ({ symbol, exchange: 'NSE' })],
  ['market.symbol', (symbol) => ({ symbol, exchange: 'NSE' })],
  ['market.ticker', (symbol) => ({ symbol, exchange: 'NSE' })],
  ['market.expiry', (symbol) => ({ symbol, exchange: 'NFO', instrumenttype: 'options' })],
  ['market.multiquotes', (symbol) => ({ symbols: [{ symbol, exchange: 'NSE' }] })],
  ['market.watch', (symbol) => ({ symbols: [{ symbol, exchange: 'NSE' }], mode: 'ltp' })],
  ['market.optionChain', (underlying) => ({ underlying, exchange: 'NSE_INDEX', expiry_date: '25AUG26' })],
];

const apikey = 'k'.repeat(64);
/** Gateway requests that are no channel of their own (the paper gateway and the feed read them). */
const REQUESTS: [string, z.ZodType, (s: string) => unknown][] = [
  [
    'OptionSymbolRequest',
    OptionSymbolRequest,
    (u) => ({
      apikey,
      underlying: u,
      exchange: 'NSE_INDEX',
      expiry_date: '25AUG26',
      offset: 'ATM',
      option_type: 'CE',
    }),
  ],
  [
    'OptionsOrderRequest',
    OptionsOrderRequest,
    (u) => ({
      apikey,
      strategy: 's',
      underlying: u,
      exchange: 'NSE_INDEX',
      expiry_date: '25AUG26',
      offset: 'ATM',
      option_type: 'CE',
      action: 'BUY',
      quantity: 75,
    }),
  ],
  ['OptionGreeksRequest', OptionGreeksRequest, (symbol) => ({ apikey, symbol, exchange: 'NFO' })],
  [
    'OptionGreeksRequest.underlying_symbol',
    OptionGreeksRequest,
    (u) => ({ apikey, symbol: 'NIFTY25AUG2625000CE', exchange: 'NFO', underlying_symbol: u }),
  ],
  [
    'MarginRequest',
    MarginRequest,
    (symbol) => ({
      apikey,
      positions: [
        { symbol, exchange: 'NSE', action: 'BUY', quantity: 1, product: 'MIS', pricetype: 'MARKET' },
      ],
    }),
  ],
  [
    'HistoryRequest',
    HistoryRequest,
    (symbol) => ({
      apikey,
      symbol,
      exchange: 'NSE',
      interval: 'D',
      start_date: '2026-01-01',
      end_date: '2026-01-31',
    }),
  ],
  ['WsSubscribe', WsSubscribe, (symbol) => ({ action: 'subscribe', symbol, exchange: 'NSE' })],
  [
    'WsSubscribe.symbols',
    WsSubscribe,
    (symbol) => ({ action: 'subscribe', symbols: [{ symbol, exchange: 'NSE' }] }),
  ],
  ['WatchlistItem', WatchlistItem, (symbol) => ({ symbol, exchange: 'NSE' })],
  ['SymbolRiskOverride', SymbolRiskOverride, (symbol) => ({ symbol, exchange: 'NSE' })],
];

describe('every channel and request naming an instrument uses it', () => {
  it.each(CHANNEL_INPUTS)('%s', (name, input) => {
    const schema = CHANNELS[name].input;
    expect(messages(schema, input('SBIN')), 'the valid input').toEqual([]);
    for (const bad of BAD) {
      const got = messages(schema, input(bad));
      expect(got.length, JSON.stringify(bad)).toBeGreaterThan(0);
      expect(
        got.some((m) => CONTROL.test(m)),
        `${JSON.stringify(bad)}: ${got.join('; ')}`,
      ).toBe(true);
    }
  });

  it.each(REQUESTS)('%s', (_name, schema, input) => {
    expect(messages(schema, input('NIFTY')), 'the valid input').toEqual([]);
    for (const bad of BAD) {
      const got = messages(schema, input(bad));
      expect(
        got.some((m) => CONTROL.test(m)),
        `${JSON.stringify(bad)}: ${got.join('; ')}`,
      ).toBe(true);
    }
  });
});
