// The option chain's arithmetic, free of I/O: the strikes one expiry lists (from `market.search`
// rows), the at-the-money strike, the window of strikes shown around it, and each contract's quote
// from `market.multiquotes` or a `market.quote` event. A contract the gateway could not quote keeps
// its row with its reason; nothing is made up for it.
import type { MarketQuoteEvent, MultiQuotesResponse, SymbolRecord } from '@contract';
import { addDec, mulDec, decOf, divDec, parseDecimal, toNumber } from '@shared/decimal.js';
import { parseSymbol } from './instrument';
import { quoteOf } from './multi-quote';

export type OptionSide = 'CE' | 'PE';

/** One listed contract of the chain. */
export interface ChainContract {
  symbol: string;
  exchange: string;
  optionType: OptionSide;
  lotSize: number;
  tickSize: number;
}

/** A strike with the call and put the gateway lists at it (either may be absent). */
export interface ChainStrike {
  strike: number;
  /** As the symbol writes it (`24000`, `83.25`): shown exactly, never through a float. */
  strikeText: string;
  CE?: ChainContract;
  PE?: ChainContract;
}

/** What the chain shows of a contract's market. */
export interface ChainQuote {
  ltp: number;
  /** ltp − previous close (decimal arithmetic). */
  change: number;
  /** Percent of the previous close, 2 decimals; null without a previous close. */
  changePercent: number | null;
  /** Open interest; undefined where the gateway does not give it. */
  oi?: number;
  bid: number;
  ask: number;
  volume: number;
  /** Which update this is (events: their seq; a multiquotes answer: 0), so an older one never wins. */
  seq: number;
}

export const chainKey = (c: { symbol: string; exchange: string }): string => `${c.exchange}:${c.symbol}`;

/**
 * The strikes of one underlying and expiry, ascending, from a search answer. Rows of other
 * underlyings the query also matched (BANKNIFTY… for NIFTY…), futures, and other expiries are left
 * out; `expiry` is the code inside the symbol (`24NOV26`).
 */
export function chainStrikes(
  records: readonly SymbolRecord[],
  underlying: string,
  expiry: string,
): ChainStrike[] {
  const byStrike = new Map<string, ChainStrike>();
  const want = underlying.trim().toUpperCase();
  const code = expiry.replace(/-/g, '').toUpperCase();
  for (const r of records) {
    const p = parseSymbol(r.symbol);
    if (p.kind !== 'option' || p.underlying !== want) continue;
    const e = p.expiry;
    const text = `${String(e.day ?? '').padStart(2, '0')}${e.month}${String(e.year % 100).padStart(2, '0')}`;
    if (text !== code) continue;
    const strike = Number(p.strike);
    if (!Number.isFinite(strike)) continue;
    let row = byStrike.get(p.strike);
    if (!row) byStrike.set(p.strike, (row = { strike, strikeText: p.strike }));
    row[p.optionType] = {
      symbol: p.symbol,
      exchange: r.exchange,
      optionType: p.optionType,
      lotSize: r.lotsize,
      tickSize: r.tick_size,
    };
  }
  return [...byStrike.values()].sort((a, b) => a.strike - b.strike);
}

/** A dated contract's expiry as `market.expiry` lists it (`24-NOV-26`); undefined for a month-only one. */
export function expiryOf(symbol: string): string | undefined {
  const p = parseSymbol(symbol);
  if (p.kind === 'equity' || p.expiry.day === undefined) return undefined;
  const e = p.expiry;
  return `${String(e.day).padStart(2, '0')}-${e.month}-${String(e.year % 100).padStart(2, '0')}`;
}

/** The strike nearest the spot (the lower one on a tie); undefined without strikes or a spot. */
export function atmStrike(strikes: readonly ChainStrike[], spot: number | undefined): number | undefined {
  if (spot === undefined || !Number.isFinite(spot) || spot <= 0) return undefined;
  let best: number | undefined;
  for (const { strike } of strikes)
    if (best === undefined || Math.abs(strike - spot) < Math.abs(best - spot)) best = strike;
  return best;
}

/**
 * Without a spot price (commodities, currencies, an index the gateway does not quote), the strike
 * where call and put trade closest to each other is at the money (put-call parity).
 */
export function parityAtm(
  strikes: readonly ChainStrike[],
  quotes: ReadonlyMap<string, ChainQuote>,
): number | undefined {
  let best: { strike: number; gap: number } | undefined;
  for (const s of strikes) {
    const ce = s.CE && quotes.get(chainKey(s.CE));
    const pe = s.PE && quotes.get(chainKey(s.PE));
    if (!ce || !pe || ce.ltp <= 0 || pe.ltp <= 0) continue;
    const gap = Math.abs(ce.ltp - pe.ltp);
    if (!best || gap < best.gap) best = { strike: s.strike, gap };
  }
  return best?.strike;
}

/**
 * `each` strikes either side of `centre` (the at-the-money strike), fewer at the ends of the
 * list; around the middle strike when there is no centre yet.
 */
export function strikeWindow(
  strikes: readonly ChainStrike[],
  centre: number | undefined,
  each: number,
): ChainStrike[] {
  if (strikes.length === 0) return [];
  const n = Math.max(0, Math.floor(each));
  let at = centre === undefined ? -1 : strikes.findIndex((s) => s.strike === centre);
  if (at < 0) at = Math.floor((strikes.length - 1) / 2);
  return strikes.slice(Math.max(0, at - n), at + n + 1);
}

/** The contracts of a window, calls and puts, as one multiquotes/watch list. */
export function windowContracts(window: readonly ChainStrike[]): ChainContract[] {
  const out: ChainContract[] = [];
  for (const s of window) {
    if (s.CE) out.push(s.CE);
    if (s.PE) out.push(s.PE);
  }
  return out;
}

/** The keys of every listed contract of the strikes, and of the spot: the quotes that are the chain's. */
export function contractKeys(
  strikes: readonly ChainStrike[],
  spot?: { symbol: string; exchange: string },
): Set<string> {
  const keys = new Set(windowContracts(strikes).map(chainKey));
  if (spot) keys.add(chainKey(spot));
  return keys;
}

function minus(a: number, b: number): number | undefined {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return x && y ? toNumber(addDec(x, mulDec(y, decOf(-1)))) : undefined;
}

/** ltp − previous close, and its percent of the previous close (null without one). */
export function changeOf(ltp: number, prevClose: number): { change: number; changePercent: number | null } {
  const change = minus(ltp, prevClose) ?? 0;
  if (!(prevClose > 0)) return { change, changePercent: null };
  const c = parseDecimal(change);
  const p = parseDecimal(prevClose);
  const pct = c && p ? toNumber(divDec(mulDec(c, decOf(100)), p, 2)) : null;
  return { change, changePercent: pct };
}

export interface ChainQuotes {
  quotes: Map<string, ChainQuote>;
  /** Contracts the gateway answered with an error, and what it said. */
  missing: Map<string, string>;
}

/** A multiquotes answer as the chain's quotes; an entry with an error is missing, with its reason. */
export function quotesFromMulti(results: MultiQuotesResponse['results']): ChainQuotes {
  const quotes = new Map<string, ChainQuote>();
  const missing = new Map<string, string>();
  for (const r of results) {
    const key = chainKey(r);
    const d = quoteOf(r);
    if (d) {
      quotes.set(key, {
        ltp: d.ltp,
        ...changeOf(d.ltp, d.prev_close),
        oi: d.oi,
        bid: d.bid,
        ask: d.ask,
        volume: d.volume,
        seq: 0,
      });
    } else if ('error' in r) missing.set(key, typeof r.error === 'string' ? r.error : 'no quote');
  }
  return { quotes, missing };
}

/** A `market.quote` event as the chain's quote (the core computed its change in decimal). */
export function quoteFromEvent(e: MarketQuoteEvent & { seq: number }): ChainQuote {
  return {
    ltp: e.ltp,
    change: e.change,
    changePercent: e.changePercent,
    oi: e.oi,
    bid: e.bid,
    ask: e.ask,
    volume: e.volume,
    seq: e.seq,
  };
}

/** One side of a shown row. */
export interface ChainCell {
  contract: ChainContract;
  quote?: ChainQuote;
  /** Why there is no quote (the gateway's words), when it said. */
  missing?: string;
  /** In the money: a call below the spot, a put above it. */
  itm: boolean;
}

export interface ChainRow {
  strike: number;
  strikeText: string;
  atm: boolean;
  CE?: ChainCell;
  PE?: ChainCell;
}

/** The rows on screen: each strike of the window with its quotes, the at-the-money one marked. */
export function chainRows(
  window: readonly ChainStrike[],
  quotes: ReadonlyMap<string, ChainQuote>,
  missing: ReadonlyMap<string, string>,
  atm: number | undefined,
  spot: number | undefined,
): ChainRow[] {
  const cell = (c: ChainContract | undefined, strike: number): ChainCell | undefined => {
    if (!c) return undefined;
    const key = chainKey(c);
    const ref = spot ?? atm;
    const itm = ref !== undefined && (c.optionType === 'CE' ? strike < ref : strike > ref);
    return { contract: c, quote: quotes.get(key), missing: missing.get(key), itm };
  };
  return window.map((s) => ({
    strike: s.strike,
    strikeText: s.strikeText,
    atm: s.strike === atm,
    CE: cell(s.CE, s.strike),
    PE: cell(s.PE, s.strike),
  }));
}

/** The price cells of a side, in screen order, and the order side each loads the ticket with. */
export const PRICE_COLUMNS = ['ltp', 'bid', 'ask'] as const;
export type PriceColumn = (typeof PRICE_COLUMNS)[number];

/**
 * The order a price cell proposes: hitting the bid is a sell at it, lifting the ask a buy at it;
 * the LTP proposes a buy at the last price (S on the row sells there instead).
 */
export function sideOfColumn(column: PriceColumn): 'BUY' | 'SELL' {
  return column === 'bid' ? 'SELL' : 'BUY';
}

/** The price a cell stands for; undefined when there is none to trade at (no quote, or a zero bid/ask). */
export function priceOfColumn(quote: ChainQuote | undefined, column: PriceColumn): number | undefined {
  if (!quote) return undefined;
  const p = quote[column];
  return p > 0 ? p : undefined;
}
