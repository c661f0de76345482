// The shared setup of the option-chain-*.test.ts files: a NIFTY listing of one expiry, quotes,
// option prices near a spot, and a fake bridge that answers the chain.
import type { MarketQuoteEvent, MultiQuotesResponse, QuoteData, SymbolRecord } from '@contract';
import { FakeBridge } from '../../support/component/fake-bridge';

export const EXPIRY = '24-NOV-26';
export const STRIKES = Array.from({ length: 31 }, (_, i) => 24_250 + i * 50); // 24250 … 25750

export function record(symbol: string, exchange = 'NFO'): SymbolRecord {
  return {
    symbol,
    brsymbol: symbol,
    name: 'NIFTY',
    exchange,
    brexchange: exchange,
    token: symbol,
    expiry: EXPIRY,
    strike: 0,
    lotsize: 65,
    instrumenttype: 'OPTIDX',
    tick_size: 0.05,
  };
}

export function listing(): SymbolRecord[] {
  return [
    record('NIFTY24NOV26FUT'),
    ...STRIKES.flatMap((k) => [record(`NIFTY24NOV26${k}CE`), record(`NIFTY24NOV26${k}PE`)]),
    // The search matches these too: another underlying and another expiry.
    record('BANKNIFTY24NOV2652000CE'),
    record('NIFTY01DEC2625000CE'),
  ];
}

export function quote(ltp: number, over: Partial<QuoteData> = {}): QuoteData {
  return {
    ltp,
    bid: ltp - 0.05,
    ask: ltp + 0.05,
    open: ltp,
    high: ltp,
    low: ltp,
    prev_close: ltp,
    volume: 100,
    oi: 5000,
    ...over,
  };
}

/** A made-up option price: intrinsic value plus time value, so call and put meet near the spot. */
/** A live quote event for one NFO contract (yesterday's close 80), `over` for what a test looks at. */
export function quoteEvent(symbol: string, over: Partial<MarketQuoteEvent> = {}): MarketQuoteEvent {
  return {
    profileId: 'paper',
    time: 1,
    symbol,
    exchange: 'NFO',
    ltp: 80,
    change: 0,
    changePercent: 0,
    open: 0,
    high: 0,
    low: 0,
    prevClose: 80,
    volume: 10,
    oi: 99,
    bid: 80,
    ask: 81,
    ...over,
  };
}

export function optionPrice(strike: number, type: 'CE' | 'PE', spot: number): number {
  const intrinsic = Math.max(0, type === 'CE' ? spot - strike : strike - spot);
  return Math.round((intrinsic + 80 - Math.abs(spot - strike) / 20) * 20) / 20;
}

export interface ChainFake {
  bridge: FakeBridge;
  /** Contracts multiquotes answers with an error. */
  unquoted: Set<string>;
}

export function answerChain(bridge: FakeBridge, spot: number | undefined): ChainFake['unquoted'] {
  const unquoted = new Set<string>();
  bridge
    .answer('market.expiry', () => ({
      ok: true,
      value: { status: 'success', message: '', data: [EXPIRY, '01-DEC-26'] },
    }))
    .answer('market.search', (input) => ({
      ok: true,
      value: {
        status: 'success',
        message: '',
        data: listing().filter((r) => r.symbol.includes((input?.query ?? '').toUpperCase())),
      },
    }))
    .answer('market.quotes', (input) =>
      spot !== undefined && input?.exchange === 'NSE_INDEX'
        ? { ok: true, value: { status: 'success', data: quote(spot) } }
        : { ok: false, error: { kind: 'not_found', message: `no ${input?.exchange} quote` } },
    )
    .answer('market.multiquotes', (input) => {
      const results: MultiQuotesResponse['results'] = (input?.symbols ?? []).map((s) => {
        const m = /^NIFTY24NOV26(\d+)(CE|PE)$/.exec(s.symbol);
        if (s.exchange === 'NSE_INDEX' && spot !== undefined)
          return { symbol: s.symbol, exchange: s.exchange, data: quote(spot, { prev_close: spot - 100 }) };
        if (!m || unquoted.has(s.symbol))
          return { symbol: s.symbol, exchange: s.exchange, error: `Symbol '${s.symbol}' not found` };
        const ltp = optionPrice(Number(m[1]), m[2] as 'CE' | 'PE', spot ?? 24_985);
        return { symbol: s.symbol, exchange: s.exchange, data: quote(ltp, { prev_close: ltp * 2 }) };
      });
      return { ok: true, value: { status: 'success', results } };
    });
  return unquoted;
}
