// Offset resolution (gateway-behaviour §3.10): the underlying (with or without its expiry), the
// options exchange, the listed strikes of an expiry, the at-the-money strike and ATM/ITMn/OTMn.
// Failures are typed values carrying the HTTP status and upstream's sentence; routes answer them.
import { dateOf, MONTHS, symbolDate } from '../instruments/calendar.js';
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import { optionSymbol } from '../instruments/symbols.js';
import type { Market } from '../market/market.js';

export type OptionType = 'CE' | 'PE';

export interface Refusal {
  ok: false;
  status: number;
  message: string;
}
export type Resolved<T> = { ok: true; value: T } | Refusal;

const refuse = (status: number, message: string): Refusal => ({ ok: false, status, message });

/** `NIFTY28OCT25FUT` → NIFTY + 28OCT25 (§3.10's regex). */
const CARRIES_EXPIRY = /^([A-Z]+)(\d{2}[A-Z]{3}\d{2})(FUT)?$/;

export interface UnderlyingRef {
  /** NIFTY */
  base: string;
  /** DDMMMYY, e.g. 25AUG26 */
  expiryCode: string;
  /** YYYY-MM-DD */
  expiryIso: string;
}

/** DDMMMYY → YYYY-MM-DD, or null when it is not a real date. */
export function expiryCodeToIso(code: string): string | null {
  const m = /^(\d{2})([A-Z]{3})(\d{2})$/.exec(code);
  if (!m) return null;
  const month0 = MONTHS.indexOf(m[2] as (typeof MONTHS)[number]);
  if (month0 < 0) return null;
  const iso = dateOf(2000 + Number(m[3]), month0, Number(m[1]));
  return symbolDate(iso) === code ? iso : null;
}

/** The underlying's base name and the expiry it names or `expiryDate` gives (the latter wins). */
export function parseUnderlying(underlying: string, expiryDate: string | undefined): Resolved<UnderlyingRef> {
  const upper = underlying.trim().toUpperCase();
  const m = CARRIES_EXPIRY.exec(upper);
  const base = m ? (m[1] ?? upper) : upper;
  const code = expiryDate ?? m?.[2];
  if (code === undefined) {
    return refuse(
      400,
      'expiry_date is required when the underlying does not carry an expiry (e.g. NIFTY28OCT25FUT)',
    );
  }
  const iso = expiryCodeToIso(code);
  if (iso === null) return refuse(400, `expiry_date ${code} is not a valid date (DDMMMYY, e.g. 25AUG26)`);
  return { ok: true, value: { base, expiryCode: code, expiryIso: iso } };
}

/** NSE_INDEX/NSE/NFO → NFO, BSE_INDEX/BSE/BFO → BFO, others unchanged (§3.10). */
export function optionsExchange(exchange: string): string {
  if (exchange === 'NSE_INDEX' || exchange === 'NSE' || exchange === 'NFO') return 'NFO';
  if (exchange === 'BSE_INDEX' || exchange === 'BSE' || exchange === 'BFO') return 'BFO';
  return exchange;
}

/**
 * The instrument quoted for the underlying: the cash or index row (NFO/BFO inputs are quoted on
 * NSE/BSE), or for MCX and CDS, which have no spot row, the nearest unexpired future.
 */
export function underlyingInstrument(
  master: InstrumentMaster,
  exchange: string,
  base: string,
  today: string,
): Resolved<Instrument> {
  const cash: Record<string, readonly string[]> = {
    NSE_INDEX: ['NSE_INDEX'],
    BSE_INDEX: ['BSE_INDEX'],
    NSE: ['NSE', 'NSE_INDEX'],
    BSE: ['BSE', 'BSE_INDEX'],
    NFO: ['NSE', 'NSE_INDEX'],
    BFO: ['BSE', 'BSE_INDEX'],
  };
  for (const ex of cash[exchange] ?? []) {
    const inst = master.get(ex, base);
    if (inst) return { ok: true, value: inst };
  }
  if (!cash[exchange]) {
    const fut = master
      .derivatives(exchange, base)
      .filter((r) => r.kind === 'FUT' && r.expiryDate !== null && r.expiryDate >= today)
      .sort((a, b) => (a.expiryDate ?? '').localeCompare(b.expiryDate ?? ''))[0];
    if (fut) return { ok: true, value: fut };
  }
  return refuse(404, `Underlying ${base} not found in ${exchange}`);
}

/** Listed strikes of one expiry, ascending (a strike listed for either side counts). */
export function listedStrikes(
  master: InstrumentMaster,
  optExchange: string,
  base: string,
  expiryIso: string,
): number[] {
  const set = new Set<number>();
  for (const r of master.derivatives(optExchange, base)) {
    if ((r.kind === 'CE' || r.kind === 'PE') && r.expiryDate === expiryIso) set.add(r.strike);
  }
  return [...set].sort((a, b) => a - b);
}

/** The listed strike closest to `ltp` (the lower on a tie), or `round(ltp/strikeInt)*strikeInt`. */
export function atmStrike(strikes: readonly number[], ltp: number, strikeInt?: number): number {
  if (strikeInt !== undefined) return roundStrike(Math.round(ltp / strikeInt) * strikeInt);
  let best = strikes[0] ?? 0;
  for (const k of strikes) if (Math.abs(k - ltp) < Math.abs(best - ltp)) best = k;
  return best;
}

function roundStrike(k: number): number {
  return Math.round(k * 10_000) / 10_000;
}

/** Steps along the strike list for an offset: CE ITM lower, CE OTM higher; PE the reverse. */
export function offsetSteps(offset: string, type: OptionType): number {
  if (offset === 'ATM') return 0;
  const n = Number(offset.slice(3));
  const itm = offset.startsWith('ITM');
  return (type === 'CE') === itm ? -n : n;
}

/** The label a strike carries in a chain for one side (ATM, ITMn, OTMn). */
export function strikeLabel(index: number, atmIndex: number, type: OptionType): string {
  if (index === atmIndex) return 'ATM';
  const n = Math.abs(index - atmIndex);
  const below = index < atmIndex;
  return (type === 'CE') === below ? `ITM${n}` : `OTM${n}`;
}

export interface ResolvedOption {
  base: string;
  expiryCode: string;
  expiryIso: string;
  optExchange: string;
  underlying: Instrument;
  underlyingLtp: number;
  atm: number;
  strike: number;
  option: Instrument;
}

export interface ResolveRequest {
  underlying: string;
  exchange: string;
  expiry_date?: string | undefined;
  strike_int?: number | undefined;
  offset: string;
  option_type: OptionType;
}

export interface ResolveContext {
  master: InstrumentMaster;
  market: Market;
  /** IST date, YYYY-MM-DD. */
  today: string;
}

/** The chain of one expiry with its ATM: shared by optionsymbol, optionchain and the order routes. */
export interface ExpiryChain {
  ref: UnderlyingRef;
  optExchange: string;
  underlying: Instrument;
  underlyingLtp: number;
  strikes: number[];
  atm: number;
}

export function resolveChain(
  ctx: ResolveContext,
  req: {
    underlying: string;
    exchange: string;
    expiry_date?: string | undefined;
    strike_int?: number | undefined;
  },
): Resolved<ExpiryChain> {
  const ref = parseUnderlying(req.underlying, req.expiry_date);
  if (!ref.ok) return ref;
  const { base, expiryCode, expiryIso } = ref.value;
  const optExchange = optionsExchange(req.exchange);
  if (expiryIso < ctx.today) {
    return refuse(400, `Expiry ${expiryCode} has passed: ${base} options expiring then are no longer listed`);
  }
  const und = underlyingInstrument(ctx.master, req.exchange, base, ctx.today);
  if (!und.ok) return und;
  const strikes = listedStrikes(ctx.master, optExchange, base, expiryIso);
  if (strikes.length === 0) {
    return refuse(404, `No ${base} options expiring ${expiryCode} found in ${optExchange}`);
  }
  const underlyingLtp = ctx.market.lastPrice(und.value);
  const atm = atmStrike(strikes, underlyingLtp, req.strike_int);
  return {
    ok: true,
    value: { ref: ref.value, optExchange, underlying: und.value, underlyingLtp, strikes, atm },
  };
}

function notFound(symbol: string, exchange: string): Refusal {
  return refuse(
    404,
    `Option symbol ${symbol} not found in ${exchange}. Symbol may not exist or master contract needs update.`,
  );
}

/** The strike an offset names in a chain, or the strike past the chain's end it would name. */
export function strikeAt(chain: ExpiryChain, offset: string, type: OptionType, strikeInt?: number): number {
  const steps = offsetSteps(offset, type);
  if (strikeInt !== undefined) return roundStrike(chain.atm + steps * strikeInt);
  const { strikes } = chain;
  const i = strikes.indexOf(chain.atm) + steps;
  const inside = strikes[i];
  if (inside !== undefined) return inside;
  // Off the listed ladder: extrapolate with the ladder's last step so the answer names the strike.
  const last = strikes.length - 1;
  const gap = strikes.length > 1 ? (strikes[last] ?? 0) - (strikes[last - 1] ?? 0) : 1;
  return i < 0
    ? roundStrike((strikes[0] ?? 0) + i * gap)
    : roundStrike((strikes[last] ?? 0) + (i - last) * gap);
}

/** Resolves one offset to a listed option (404 naming the symbol when the strike is not listed). */
export function resolveInChain(
  ctx: ResolveContext,
  chain: ExpiryChain,
  offset: string,
  type: OptionType,
  strikeInt?: number,
): Resolved<ResolvedOption> {
  const strike = strikeAt(chain, offset, type, strikeInt);
  const symbol = optionSymbol(chain.ref.base, chain.ref.expiryIso, strike, type);
  const option = strike > 0 ? ctx.master.get(chain.optExchange, symbol) : undefined;
  if (!option) return notFound(symbol, chain.optExchange);
  return {
    ok: true,
    value: {
      base: chain.ref.base,
      expiryCode: chain.ref.expiryCode,
      expiryIso: chain.ref.expiryIso,
      optExchange: chain.optExchange,
      underlying: chain.underlying,
      underlyingLtp: chain.underlyingLtp,
      atm: chain.atm,
      strike,
      option,
    },
  };
}

export function resolveOption(ctx: ResolveContext, req: ResolveRequest): Resolved<ResolvedOption> {
  const chain = resolveChain(ctx, req);
  if (!chain.ok) return chain;
  return resolveInChain(ctx, chain.value, req.offset, req.option_type, req.strike_int);
}
