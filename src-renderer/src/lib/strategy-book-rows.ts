// What the Strategies book shows of a saved strategy and what its actions send, as pure functions:
// the state in words, the legs' words, the lines of an exit, a resume or a roll asked before they go,
// and the roll's neighbouring strikes and its net credit or debit.
import type { StrategyLegView, StrategyState, StrategyView, SymbolRecord } from '@contract';
import { formatMoney, formatPrice, formatQty } from '@shared/format.js';
import { displayName, parseSymbol } from './instrument';

export const STATE_WORDS: Readonly<Record<StrategyState, string>> = {
  sending: 'sending',
  partial: 'partial',
  open: 'open',
  exiting: 'exiting',
  closed: 'closed',
  exitFailed: 'exit failed',
};

/** What the trader can do in each state, said in the state's title. */
export const STATE_TITLES: Readonly<Record<StrategyState, string>> = {
  sending: 'Its legs are on their way, one at a time',
  partial:
    'A leg was refused or had no answer; the rest wait: send the remaining legs or unwind the sent ones',
  open: 'Every leg was sent',
  exiting: 'Its exits went as one basket; they are never sent again by themselves',
  closed: 'Nothing of it is open',
  exitFailed: 'An exit was refused: exit the rest by hand',
};

export const EXIT_WHY: Readonly<Record<NonNullable<StrategyView['exit']>['why'], string>> = {
  stop: 'stop hit',
  target: 'target hit',
  trader: 'exited',
  unwind: 'unwound',
};

export const legName = (l: Pick<StrategyLegView, 'symbol'>): string => displayName(l.symbol);

/** `2 lots (150)` or `150` when the lot size is 1. */
export function lotsText(units: number, lotSize: number): string {
  const abs = Math.abs(units);
  if (lotSize <= 1 || abs % lotSize !== 0) return formatQty(units, { signed: units < 0 });
  const lots = abs / lotSize;
  return `${units < 0 ? '-' : ''}${formatQty(lots)} lot${lots === 1 ? '' : 's'} (${formatQty(abs)})`;
}

/** Legs with something open now. */
export const openLegs = (s: StrategyView): StrategyLegView[] => s.legs.filter((l) => l.open !== 0);

/** The strategy still holds a quantity or has legs to send: it may not be removed. */
export const removable = (s: StrategyView): boolean => s.state === 'closed';

/** Legs a resume would send: never sent, or refused (an unknown one is the watcher's to settle). */
export const remainingLegs = (s: StrategyView): StrategyLegView[] =>
  s.legs.filter((l) => l.state === 'waiting' || l.state === 'refused');

const sideWord = (a: 'BUY' | 'SELL') => (a === 'BUY' ? 'Buy' : 'Sell');

/** The lines of an exit (or an unwind): each open leg closed at MARKET, one basket. */
export function exitLines(s: StrategyView): string[] {
  return openLegs(s).map(
    (l) => `${sideWord(l.open > 0 ? 'SELL' : 'BUY')} ${formatQty(Math.abs(l.open))} ${legName(l)} at MARKET`,
  );
}

/** The lines of a resume in the order they go: BUY legs first (their margin hedges the shorts). */
export function resumeLines(s: StrategyView): string[] {
  const legs = remainingLegs(s);
  return [...legs.filter((l) => l.action === 'BUY'), ...legs.filter((l) => l.action === 'SELL')].map(
    (l) =>
      `${sideWord(l.action)} ${formatQty(l.quantity)} ${legName(l)} at ${l.pricetype === 'LIMIT' ? formatPrice(l.price) : 'MARKET'}` +
      (l.state === 'refused' ? ` (refused before: ${l.reason ?? 'no reason given'})` : ''),
  );
}

/** Legs with no answer yet: a resume never sends them; the trader is told so. */
export const unknownLegs = (s: StrategyView): StrategyLegView[] =>
  s.legs.filter((l) => l.state === 'unknown');

/** The strategy's P&L as a number (null when a leg has no price). */
export const pnlOf = (s: StrategyView): number | null => (s.pnl === null ? null : Number(s.pnl));

/** `+₹1,234.50` or a dash. */
export const money = (v: string | number | null | undefined, signed = true): string =>
  v === null || v === undefined ? '—' : formatMoney(v, { signed });

/** The strategy's summary for a row's accessible name. */
export function strategySummary(s: StrategyView): string {
  return `${s.name}, ${s.underlying}, ${STATE_WORDS[s.state]}, ${s.legs.length} leg${s.legs.length === 1 ? '' : 's'}, P&L ${money(s.pnl)}`;
}

/** Why and when it exited: `stop hit at 10:42:05 (P&L -₹2,000.00)`. */
export function exitText(s: StrategyView): string | undefined {
  const e = s.exit;
  if (!e) return undefined;
  const time = /T(\d{2}:\d{2}:\d{2})/.exec(e.at)?.[1] ?? e.at;
  const refused = e.refused.length ? `; refused: ${e.refused.join('; ')}` : '';
  return `${EXIT_WHY[e.why]} at ${time}${e.pnl !== undefined ? ` (P&L ${money(e.pnl)})` : ''}${refused}`;
}

/**
 * A stop or target typed in rupees: more than 0, paise at most; empty takes it away (null).
 * Answers the value, or why not.
 */
export function parseRupees(
  text: string,
  what: 'Stop' | 'Target',
): { ok: true; value: number | null } | { ok: false; reason: string } {
  const t = text.replace(/[₹,\s]/g, '');
  if (t === '') return { ok: true, value: null };
  if (!/^\d+(\.\d{1,2})?$/.test(t))
    return { ok: false, reason: `${what} must be rupees, at most 2 decimals` };
  const value = Number(t);
  if (!(value > 0)) return { ok: false, reason: `${what} must be more than ₹0 (empty removes it)` };
  return { ok: true, value };
}

// ---- roll ----

export interface StrikeChoice {
  symbol: string;
  exchange: string;
  strike: number;
  /** The strike as the symbol writes it. */
  strikeText: string;
}

/**
 * The listed strikes of the leg's expiry and type around its own (`around` each side), nearest
 * first by distance, from a `market.search` answer; the leg's own strike is left out.
 */
export function neighbourStrikes(
  leg: Pick<StrategyLegView, 'symbol' | 'exchange'>,
  found: readonly Pick<SymbolRecord, 'symbol' | 'exchange'>[],
  around = 5,
): StrikeChoice[] {
  const own = parseSymbol(leg.symbol);
  if (own.kind !== 'option') return [];
  const same = (e: typeof own.expiry, f: typeof own.expiry) =>
    e.day === f.day && e.month === f.month && e.year === f.year;
  const seen = new Map<string, StrikeChoice>();
  for (const r of found) {
    if (r.exchange.toUpperCase() !== leg.exchange.toUpperCase()) continue;
    const p = parseSymbol(r.symbol);
    if (p.kind !== 'option' || p.underlying !== own.underlying || p.optionType !== own.optionType) continue;
    if (!same(p.expiry, own.expiry) || p.symbol === own.symbol) continue;
    seen.set(p.symbol, {
      symbol: p.symbol,
      exchange: r.exchange,
      strike: Number(p.strike),
      strikeText: p.strike,
    });
  }
  const ownStrike = Number(own.strike);
  const all = [...seen.values()].sort((a, b) => a.strike - b.strike);
  const below = all.filter((c) => c.strike < ownStrike).slice(-around);
  const above = all.filter((c) => c.strike > ownStrike).slice(0, around);
  return [...below, ...above];
}

/** The `market.search` query that lists the leg's expiry: `NIFTY25NOV26`. */
export function expiryQuery(leg: Pick<StrategyLegView, 'symbol'>): string | undefined {
  const p = parseSymbol(leg.symbol);
  if (p.kind !== 'option' || p.expiry.day === undefined) return undefined;
  const dd = String(p.expiry.day).padStart(2, '0');
  return `${p.underlying}${dd}${p.expiry.month}${String(p.expiry.year % 100).padStart(2, '0')}`;
}

export interface Touch {
  bid: number | undefined;
  ask: number | undefined;
}

export interface RollSide {
  action: 'BUY' | 'SELL';
  symbol: string;
  quantity: number;
  /** The price a MARKET order meets: the ask to buy, the bid to sell; undefined without a quote. */
  price: number | undefined;
}

export interface RollPreview {
  close: RollSide;
  open: RollSide;
  /** Rupees in (+, a credit) or out (−, a debit) of the two at those prices; undefined without both. */
  net: number | undefined;
}

const touchFor = (action: 'BUY' | 'SELL', t: Touch | undefined): number | undefined => {
  const p = action === 'BUY' ? t?.ask : t?.bid;
  return p !== undefined && p > 0 ? p : undefined;
};

/** The two orders of a roll of `leg` to `to`, at the touch: the open quantity closed, then opened again. */
export function rollPreview(
  leg: Pick<StrategyLegView, 'symbol' | 'open'>,
  to: string,
  oldTouch: Touch | undefined,
  newTouch: Touch | undefined,
): RollPreview | undefined {
  if (leg.open === 0) return undefined;
  const quantity = Math.abs(leg.open);
  const closing: 'BUY' | 'SELL' = leg.open > 0 ? 'SELL' : 'BUY';
  const opening: 'BUY' | 'SELL' = leg.open > 0 ? 'BUY' : 'SELL';
  const close = { action: closing, symbol: leg.symbol, quantity, price: touchFor(closing, oldTouch) };
  const open = { action: opening, symbol: to, quantity, price: touchFor(opening, newTouch) };
  const cash = (s: RollSide) =>
    s.price === undefined ? undefined : (s.action === 'SELL' ? 1 : -1) * s.price * s.quantity;
  const a = cash(close);
  const b = cash(open);
  const net = a === undefined || b === undefined ? undefined : Math.round((a + b) * 100) / 100;
  return { close, open, net };
}

/** `close NIFTY 25 NOV 24000 CE 75 at ~120.50` (a dash without a price); the side is shown beside it. */
export function rollLine(word: 'close' | 'open', s: RollSide): string {
  return `${word} ${displayName(s.symbol)} ${formatQty(s.quantity)} at ~${s.price === undefined ? '—' : formatPrice(s.price)}`;
}

/** `Net credit ₹1,234.50` / `Net debit ₹560.00`. */
export function netText(net: number | undefined): string {
  if (net === undefined) return 'Net: no price to count it';
  if (net === 0) return 'Net: ₹0.00';
  return `Net ${net > 0 ? 'credit' : 'debit'} ${formatMoney(Math.abs(net))}`;
}

// ---- the book's lines ----

export type BookLine =
  | { kind: 'strategy'; key: string; strategy: StrategyView }
  | { kind: 'legs-head'; key: string; strategy: StrategyView }
  | { kind: 'leg'; key: string; strategy: StrategyView; leg: StrategyLegView; index: number };

/** Strategies newest first, each followed by its legs (under a header of their own) when expanded. */
export function bookLines(strategies: readonly StrategyView[], expanded: ReadonlySet<string>): BookLine[] {
  const out: BookLine[] = [];
  const sorted = [...strategies].sort(
    (a, b) =>
      Number(a.state === 'closed') - Number(b.state === 'closed') || b.createdAt.localeCompare(a.createdAt),
  );
  for (const s of sorted) {
    out.push({ kind: 'strategy', key: s.id, strategy: s });
    if (!expanded.has(s.id)) continue;
    out.push({ kind: 'legs-head', key: `${s.id}/legs`, strategy: s });
    s.legs.forEach((leg, index) =>
      out.push({ kind: 'leg', key: `${s.id}/${index}`, strategy: s, leg, index }),
    );
  }
  return out;
}

/** A leg can be rolled: an option with a quantity open, in a strategy that is not exiting or closed. */
export function rollable(s: StrategyView, leg: StrategyLegView): boolean {
  return (
    leg.open !== 0 &&
    (s.state === 'open' || s.state === 'partial') &&
    leg.state !== 'closed' &&
    parseSymbol(leg.symbol).kind === 'option'
  );
}

export const LEG_STATE_WORDS: Readonly<Record<StrategyLegView['state'], string>> = {
  waiting: 'waiting',
  sending: 'sending',
  sent: 'sent',
  refused: 'refused',
  unknown: 'no answer',
  closed: 'rolled out',
};

/** A note for the strategy row: its exit, else the first refused or unanswered leg. */
export function strategyNote(s: StrategyView): string | undefined {
  const exit = exitText(s);
  if (exit) return exit;
  const bad = s.legs.find((l) => l.state === 'refused' || l.state === 'unknown');
  if (bad) return `${legName(bad)} ${LEG_STATE_WORDS[bad.state]}${bad.reason ? `: ${bad.reason}` : ''}`;
  return undefined;
}
