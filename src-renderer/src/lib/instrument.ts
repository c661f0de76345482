// Instruments as a trader reads them, and what each exchange lets one trade. Symbols follow the
// OpenAlgo format (gateway-behaviour §8.1, src-main/paper/instruments/symbols.ts):
//   equity  SBIN, BAJAJ-AUTO                      → unchanged
//   future  NIFTY25NOV26FUT  (UNDERLYING DD MMM YY FUT)           → NIFTY 25 NOV FUT
//   option  NIFTY25NOV2624000CE (… DD MMM YY STRIKE CE|PE)        → NIFTY 25 NOV 24000 CE
//           USDINR19APR2683.25CE (fractional strikes keep the point) → USDINR 19 APR 83.25 CE
//   NCO     ALUMINI26MAYFUT  (YY MMM, no day)                     → ALUMINI MAY FUT
// The year is left out as traders do, unless it is not the reference year (a far expiry), where
// dropping it would make two contracts read alike.
import type { Exchange, OrderExchange, Product } from '@contract';

const MONTHS = 'JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC';
// The underlying is greedy: the expiry is the last DDMMMYY in the symbol, so underlyings that hold
// digits (NIFTYNXT50, 726GS2033) are kept whole.
const FUTURE = new RegExp(`^(.+)(\\d{2})(${MONTHS})(\\d{2})FUT$`);
const OPTION = new RegExp(`^(.+)(\\d{2})(${MONTHS})(\\d{2})(\\d+(?:\\.\\d+)?)(CE|PE)$`);
const MONTH_FUTURE = new RegExp(`^(.+?)(\\d{2})(${MONTHS})FUT$`);

export interface Expiry {
  /** Absent for month-only contracts (NCO). */
  day?: number;
  /** JAN … DEC */
  month: string;
  /** Four digits (20YY). */
  year: number;
}

export type ParsedSymbol =
  | { kind: 'equity'; symbol: string }
  | { kind: 'future'; symbol: string; underlying: string; expiry: Expiry }
  | {
      kind: 'option';
      symbol: string;
      underlying: string;
      expiry: Expiry;
      /** As written in the symbol (`24000`, `83.25`): exact, never a float. */
      strike: string;
      optionType: 'CE' | 'PE';
    };

function dayOk(dd: string): boolean {
  const d = Number(dd);
  return d >= 1 && d <= 31;
}

/** What a symbol names. Anything that is not a dated future or option reads as equity (unchanged). */
export function parseSymbol(symbol: string): ParsedSymbol {
  const s = symbol.trim().toUpperCase();
  let m = OPTION.exec(s);
  if (m && dayOk(m[2] ?? '')) {
    const [, underlying = '', dd = '', month = '', yy = '', strike = '', type = ''] = m;
    return {
      kind: 'option',
      symbol: s,
      underlying,
      expiry: { day: Number(dd), month, year: 2000 + Number(yy) },
      strike,
      optionType: type as 'CE' | 'PE',
    };
  }
  m = FUTURE.exec(s);
  if (m && dayOk(m[2] ?? '')) {
    const [, underlying = '', dd = '', month = '', yy = ''] = m;
    return {
      kind: 'future',
      symbol: s,
      underlying,
      expiry: { day: Number(dd), month, year: 2000 + Number(yy) },
    };
  }
  m = MONTH_FUTURE.exec(s);
  if (m) {
    const [, underlying = '', yy = '', month = ''] = m;
    return { kind: 'future', symbol: s, underlying, expiry: { month, year: 2000 + Number(yy) } };
  }
  return { kind: 'equity', symbol: symbol.trim() };
}

export interface DisplayOptions {
  /** The year a trader takes for granted (today's, in IST); other years are written out. */
  referenceYear?: number;
}

function expiryText(e: Expiry, options: DisplayOptions): string {
  const parts = e.day === undefined ? [e.month] : [String(e.day).padStart(2, '0'), e.month];
  if (options.referenceYear !== undefined && e.year !== options.referenceYear) parts.push(String(e.year));
  return parts.join(' ');
}

/** Plain names (no reference year) by symbol: a chain's cells ask for them on every quote. */
const plainNames = new Map<string, string>();
const PLAIN_NAMES_KEPT = 5_000;

/** `NIFTY 25 NOV 24000 CE`, `NIFTY 25 NOV FUT`, `SBIN`. */
export function displayName(symbol: string, options: DisplayOptions = {}): string {
  if (options.referenceYear !== undefined) return nameOf(symbol, options);
  let name = plainNames.get(symbol);
  if (name === undefined) {
    if (plainNames.size >= PLAIN_NAMES_KEPT) plainNames.clear();
    name = nameOf(symbol, options);
    plainNames.set(symbol, name);
  }
  return name;
}

function nameOf(symbol: string, options: DisplayOptions): string {
  const p = parseSymbol(symbol);
  switch (p.kind) {
    case 'equity':
      return p.symbol;
    case 'future':
      return `${p.underlying} ${expiryText(p.expiry, options)} FUT`;
    case 'option':
      return `${p.underlying} ${expiryText(p.expiry, options)} ${p.strike} ${p.optionType}`;
  }
}

// ---- exchanges and products ----
// The lists mirror the contract's (renderer code may import its types only) and the paper
// gateway's validation (src-main/paper/engine/validation.ts): NRML is refused on the equity
// segments, CNC on the derivative ones; index "exchanges" are quote-only.
const EQUITY_EXCHANGES: readonly OrderExchange[] = ['NSE', 'BSE'];
const DERIVATIVE_EXCHANGES: readonly OrderExchange[] = ['NFO', 'BFO', 'MCX', 'CDS', 'BCD', 'NCDEX', 'NCO'];
const EQUITY_PRODUCTS: readonly Product[] = ['CNC', 'MIS'];
const DERIVATIVE_PRODUCTS: readonly Product[] = ['NRML', 'MIS'];

export function isEquityExchange(exchange: string): boolean {
  return (EQUITY_EXCHANGES as readonly string[]).includes(exchange);
}

/** Quantities are whole lots there, and CNC is refused. */
export function isDerivativeExchange(exchange: string): boolean {
  return (DERIVATIVE_EXCHANGES as readonly string[]).includes(exchange);
}

/** True where orders can be placed at all (not NSE_INDEX and the other quote-only indices). */
export function isOrderExchange(exchange: string): exchange is OrderExchange {
  return isEquityExchange(exchange) || isDerivativeExchange(exchange);
}

/** The products the exchange accepts, the usual choice first (delivery / carry-forward). */
export function productsFor(exchange: Exchange | string): readonly Product[] {
  if (isEquityExchange(exchange)) return EQUITY_PRODUCTS;
  if (isDerivativeExchange(exchange)) return DERIVATIVE_PRODUCTS;
  return [];
}
