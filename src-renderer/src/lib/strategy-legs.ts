// The strategy builder's legs, free of I/O: a leg added from a chain cell (the same contract again
// adds or takes off lots), a strike stepped to the next listed one, a template's legs placed on the
// chain's strikes, and the legs as the payoff, the margin ask, the send and the confirm see them.
import type { MarginIpcInput, StrategyLegInput, StrategyView } from '@contract';
import type { LegSide, OptionKind, PayoffLeg } from '@shared/options/types.js';
import { formatPrice, formatQty } from '@shared/format.js';
import { displayName, parseSymbol } from './instrument';
import type { ChainQuote, ChainStrike } from './option-chain';

/** One leg as the builder holds it: a listed contract, a side, lots and what the market says of it. */
export interface BuilderLeg {
  id: number;
  symbol: string;
  exchange: string;
  kind: OptionKind;
  strike: number;
  /** As the symbol writes it: shown exactly. */
  strikeText: string;
  /** The contract's expiry code, `DDMMMYY` (`24NOV26`). */
  expiry: string;
  side: LegSide;
  lots: number;
  lotSize: number;
  tickSize: number;
  /** Per unit: the mid of bid and ask, else the last price (a saved leg: its average price); null without one. */
  premium: number | null;
  /** A fraction (0.15), from the gateway's greeks; null when not known. */
  iv: number | null;
}

/** What a chain cell adds: its contract, strike and the side its column proposes. */
export interface ChainPick {
  symbol: string;
  exchange: string;
  kind: OptionKind;
  strike: number;
  strikeText: string;
  expiry: string;
  lotSize: number;
  tickSize: number;
  side: LegSide;
  quote?: ChainQuote | undefined;
}

/** `24-NOV-26` (the picker's listing) → `24NOV26`. */
export const expiryCodeOf = (listed: string): string => listed.replace(/-/g, '').toUpperCase();

/** `24NOV26` → `24 NOV` as a trader reads it in a table. */
export const expiryWords = (code: string): string => `${code.slice(0, 2)} ${code.slice(2, 5)}`;

/** The premium a quote stands for: mid of a two-sided market, else the last price; null without either. */
export function livePremium(q: { bid: number; ask: number; ltp: number } | undefined): number | null {
  if (!q) return null;
  if (q.bid > 0 && q.ask > 0) return (q.bid + q.ask) / 2;
  return q.ltp > 0 ? q.ltp : null;
}

const opposite = (s: LegSide): LegSide => (s === 'BUY' ? 'SELL' : 'BUY');

/**
 * Adds a chain cell's contract: a new leg of 1 lot, or for a contract already held the same side adds a
 * lot and the other side takes one off (the last lot off removes the leg): the net of the two clicks.
 */
export function addPick(
  legs: readonly BuilderLeg[],
  pick: ChainPick,
  id: number,
): { legs: BuilderLeg[]; said: string } {
  const name = displayName(pick.symbol);
  const at = legs.findIndex((l) => l.exchange === pick.exchange && l.symbol === pick.symbol);
  const had = legs[at];
  if (!had) {
    const leg: BuilderLeg = {
      id,
      symbol: pick.symbol,
      exchange: pick.exchange,
      kind: pick.kind,
      strike: pick.strike,
      strikeText: pick.strikeText,
      expiry: pick.expiry,
      side: pick.side,
      lots: 1,
      lotSize: pick.lotSize,
      tickSize: pick.tickSize,
      premium: livePremium(pick.quote),
      iv: null,
    };
    return { legs: [...legs, leg], said: `Added ${pick.side} 1 lot ${name}` };
  }
  const next = [...legs];
  if (had.side === pick.side) {
    next[at] = { ...had, lots: had.lots + 1 };
    return { legs: next, said: `${pick.side} ${name}: ${had.lots + 1} lots` };
  }
  if (had.lots <= 1) {
    next.splice(at, 1);
    return { legs: next, said: `Removed ${had.side} ${name} (${opposite(had.side)} offsets it)` };
  }
  next[at] = { ...had, lots: had.lots - 1 };
  return { legs: next, said: `${had.side} ${name}: ${had.lots - 1} lots` };
}

/** The next listed strike up (+1) or down (−1) that lists the leg's kind; undefined at the end. */
export function stepStrike(
  strikes: readonly ChainStrike[],
  leg: Pick<BuilderLeg, 'kind' | 'strike'>,
  dir: 1 | -1,
): ChainStrike | undefined {
  const listed = strikes.filter((s) => s[leg.kind]);
  if (dir > 0) return listed.find((s) => s.strike > leg.strike);
  return listed.findLast((s) => s.strike < leg.strike);
}

/** The signed units of a leg: + bought, − sold. */
export const signedUnits = (l: Pick<BuilderLeg, 'side' | 'lots' | 'lotSize'>): number =>
  (l.side === 'BUY' ? 1 : -1) * l.lots * l.lotSize;

/** The legs the payoff can price (a premium known), with their expiry's 15:30 IST. */
export function payoffLegsOf(legs: readonly BuilderLeg[], expiryMs: (code: string) => number): PayoffLeg[] {
  const out: PayoffLeg[] = [];
  for (const l of legs) {
    if (l.premium === null || l.lots <= 0) continue;
    out.push({
      kind: l.kind,
      strike: l.strike,
      side: l.side,
      quantity: l.lots * l.lotSize,
      premium: l.premium,
      iv: l.iv,
      expiryMs: expiryMs(l.expiry),
    });
  }
  return out;
}

export type StrategyProduct = 'MIS' | 'NRML';
export type StrategyPriceType = 'MARKET' | 'LIMIT';

/** A premium on the leg's tick (nearest), as a number: the LIMIT price sent. */
export function onTick(price: number, tick: number): number {
  if (!(tick > 0)) return price;
  const n = Math.round(price / tick);
  return Number((n * tick).toFixed(6));
}

/** The whole basket's margin ask (BUY legs first, as sent); undefined with no legs or over 50. */
export function marginAskOfLegs(
  legs: readonly BuilderLeg[],
  product: StrategyProduct,
): MarginIpcInput | undefined {
  if (legs.length === 0 || legs.length > 50) return undefined;
  return {
    positions: buysFirst(legs).map((l) => ({
      symbol: l.symbol,
      exchange: l.exchange as MarginIpcInput['positions'][number]['exchange'],
      action: l.side,
      quantity: l.lots * l.lotSize,
      product,
      pricetype: 'MARKET',
    })),
  };
}

/** BUY legs first (their margin hedges the shorts), each side in the order built. */
export function buysFirst<T extends { side: LegSide }>(legs: readonly T[]): T[] {
  return [...legs.filter((l) => l.side === 'BUY'), ...legs.filter((l) => l.side === 'SELL')];
}

/** The legs as `strategies.send` takes them: MARKET, or LIMIT at each leg's premium on its tick. */
export function sendLegsOf(legs: readonly BuilderLeg[], pricetype: StrategyPriceType): StrategyLegInput[] {
  return buysFirst(legs).map((l) => ({
    symbol: l.symbol,
    exchange: l.exchange as StrategyLegInput['exchange'],
    action: l.side,
    quantity: l.lots * l.lotSize,
    lotSize: l.lotSize,
    pricetype,
    price: pricetype === 'LIMIT' && l.premium !== null ? onTick(l.premium, l.tickSize) : 0,
  }));
}

/** A leg in words, for the confirm: `BUY 2 lots (150) NIFTY 25 NOV 24000 CE @ market`. */
export function legLine(l: BuilderLeg, pricetype: StrategyPriceType): string {
  const at =
    pricetype === 'LIMIT' && l.premium !== null
      ? `limit ${formatPrice(onTick(l.premium, l.tickSize), l.tickSize)}`
      : 'market';
  const lots = `${formatQty(l.lots)} lot${l.lots === 1 ? '' : 's'} (${formatQty(l.lots * l.lotSize)})`;
  return `${l.side} ${lots} ${displayName(l.symbol)} @ ${at}`;
}

/**
 * A saved strategy's legs as the builder shows them: what each holds open now (|open| units, long or
 * short by its sign) at its average price. Legs with nothing open are left out.
 */
export function savedLegs(view: StrategyView): BuilderLeg[] {
  const out: BuilderLeg[] = [];
  view.legs.forEach((l, i) => {
    const p = parseSymbol(l.symbol);
    if (p.kind !== 'option' || l.open === 0 || p.expiry.day === undefined) return;
    const units = Math.abs(l.open);
    const avg = l.averagePrice === null ? null : Number(l.averagePrice);
    const e = p.expiry;
    out.push({
      id: -(i + 1),
      symbol: l.symbol,
      exchange: l.exchange,
      kind: p.optionType,
      strike: Number(p.strike),
      strikeText: p.strike,
      expiry: `${String(e.day).padStart(2, '0')}${e.month}${String(e.year % 100).padStart(2, '0')}`,
      side: l.open > 0 ? 'BUY' : 'SELL',
      // A part-filled leg may hold less than a lot's multiple: lots then count in fractions.
      lots: units / l.lotSize,
      lotSize: l.lotSize,
      tickSize: 0.05,
      premium: avg !== null && Number.isFinite(avg) ? avg : null,
      iv: null,
    });
  });
  return out;
}
