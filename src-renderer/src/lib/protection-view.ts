// A position's protection as the desk shows it (issue 25, docs/protection.md): the brackets the core
// keeps for one (exchange, symbol, product), summed into what its row says (the nearest stop and
// target, how many brackets, the trailing state, which rest at the gateway as a GTT OCO, the hazard),
// and the checks an edited or dragged
// level passes before `protection.modify` is sent (a price on the tick, on the right side of the
// last price). Pure: the state, the row and the chart all use it.
import type { BracketView, TrailState } from '@contract';
import { exactOf, isTickMultiple, roundToStep, toNumber } from '@shared/decimal.js';
import { formatPrice } from '@shared/format.js';

export interface PositionRef {
  exchange: string;
  symbol: string;
  product: string;
}

/** The key a position and its brackets share (product and exchange read case-blind). */
export const protectionKey = (p: PositionRef): string =>
  `${p.exchange.toUpperCase()}:${p.symbol}:${p.product.toUpperCase()}`;

export type LegSide = 'stop' | 'target';

export interface LegSummary {
  price: number;
  /** The bracket whose leg this is (the nearest one when there are several). */
  bracket: BracketView;
}

export interface PositionProtection {
  /** Brackets not yet closed, on this position. */
  brackets: BracketView[];
  /** The stop nearest the market (a long's highest, a short's lowest). */
  stop?: LegSummary;
  target?: LegSummary;
  /** How many brackets have a stop / a target. */
  stops: number;
  targets: number;
  /** The strongest trailing state among them (breakeven > trailing > armed > off). */
  trail: TrailState;
  /** The first bracket whose leg the gateway refused. */
  unprotected?: BracketView;
  /** The first bracket whose legs both filled (the position went past flat). */
  overshoot?: BracketView;
  /** Brackets whose entry has not filled yet. */
  waiting: number;
}

const TRAIL_RANK: Record<TrailState, number> = { off: 0, armed: 1, trailing: 2, breakeven: 3 };

/** The brackets of each position, by protectionKey; closed ones left out. */
export function bracketsByPosition(brackets: readonly BracketView[]): Map<string, BracketView[]> {
  const out = new Map<string, BracketView[]>();
  for (const b of brackets) {
    if (b.state === 'closed') continue;
    const key = protectionKey(b);
    const list = out.get(key);
    if (list) list.push(b);
    else out.set(key, [b]);
  }
  return out;
}

/** True when `a` is nearer the market than `b` for a leg of a bracket on side `action`. */
function nearer(side: LegSide, action: BracketView['action'], a: number, b: number): boolean {
  // A long's stop and target are both sells: the higher stop and the lower target are nearer.
  const long = action === 'BUY';
  return side === 'stop' ? (long ? a > b : a < b) : long ? a < b : a > b;
}

function legSummary(list: readonly BracketView[], side: LegSide): { best?: LegSummary; count: number } {
  let best: LegSummary | undefined;
  let count = 0;
  for (const b of list) {
    const leg = b[side];
    // A refused leg rests nowhere: it is the hazard, not a level.
    if (
      !leg ||
      leg.price === undefined ||
      leg.state === 'cancelled' ||
      leg.state === 'filled' ||
      leg.state === 'refused'
    )
      continue;
    count += 1;
    if (!best || nearer(side, b.action, leg.price, best.price)) best = { price: leg.price, bracket: b };
  }
  return best ? { best, count } : { count };
}

/** What a position row shows of its protection; undefined when no open bracket is on it. */
export function protectionOf(list: readonly BracketView[] | undefined): PositionProtection | undefined {
  if (!list || list.length === 0) return undefined;
  const stop = legSummary(list, 'stop');
  const target = legSummary(list, 'target');
  let trail: TrailState = 'off';
  for (const b of list) if (TRAIL_RANK[b.trail] > TRAIL_RANK[trail]) trail = b.trail;
  return {
    brackets: [...list],
    ...(stop.best ? { stop: stop.best } : {}),
    ...(target.best ? { target: target.best } : {}),
    stops: stop.count,
    targets: target.count,
    trail,
    unprotected: list.find((b) => b.state === 'unprotected'),
    overshoot: list.find((b) => b.state === 'overshoot'),
    waiting: list.filter((b) => b.state === 'waiting').length,
  };
}

/** The trailing state in a word or two for the row: `trail`, `trailing`, `BE`; '' when off. */
export function trailWord(t: TrailState): string {
  return t === 'armed' ? 'trail' : t === 'trailing' ? 'trailing' : t === 'breakeven' ? 'BE' : '';
}

/** The trailing state in a sentence (the cell's title). */
export function trailTitle(t: TrailState): string {
  switch (t) {
    case 'armed':
      return 'Trailing stop set: it has not moved yet';
    case 'trailing':
      return 'Trailing: the stop has moved with the price';
    case 'breakeven':
      return 'Break-even: the stop is at the entry';
    default:
      return 'No trailing';
  }
}

/** The stop cell's tag for brackets held at the gateway: its word and its title. */
export interface KindTag {
  word: 'GTT';
  title: string;
}

/**
 * The "GTT" tag of a position's stop cell when any of its brackets rests at the gateway as one GTT
 * OCO (it holds with OrderDesk closed); undefined when all are core-held.
 */
export function gttTag(pr: Pick<PositionProtection, 'brackets'> | undefined): KindTag | undefined {
  const all = pr?.brackets.length ?? 0;
  const gtt = pr?.brackets.filter((b) => b.kind === 'gtt').length ?? 0;
  if (gtt === 0) return undefined;
  const title =
    all === 1
      ? 'rests at the gateway as a GTT OCO'
      : gtt === all
        ? `all ${all} brackets rest at the gateway as GTT OCOs`
        : `${gtt} of ${all} brackets rest at the gateway as GTT OCOs; the others are core-held`;
  return { word: 'GTT', title };
}

/** How far past flat an overshoot went (the excess the legs filled over the entry). */
export const overshootBy = (b: BracketView): number => Math.max(0, -b.open);

/** `value` on the nearest tick (halves up), exactly; undefined when it is no price. */
export function roundToTick(value: number, tick: number): number | undefined {
  if (!Number.isFinite(value) || !Number.isFinite(tick) || tick <= 0) return undefined;
  return toNumber(roundToStep(exactOf(value), exactOf(tick)));
}

/**
 * Where a dragged line lands: the price under the pointer (the series' coordinateToPrice, null off
 * the scale) on the nearest tick; undefined when it is no price or at or below 0.
 */
export function droppedLevel(raw: number | null | undefined, tick: number): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  const p = roundToTick(raw, tick);
  return p !== undefined && p > 0 ? p : undefined;
}

export type LevelCheck = { ok: true; price: number } | { ok: false; reason: string };

/**
 * An edited stop or target for bracket `b`, checked before it is sent: a number above 0, on the
 * instrument's tick, and on its side of the last price (a long's stop under it, its target over it;
 * a short's the other way). `ltp` unknown: the side is left to the core.
 */
export function checkLevel(
  side: LegSide,
  text: string | number,
  b: Pick<BracketView, 'action' | 'tick'>,
  ltp?: number | null,
): LevelCheck {
  const word = side === 'stop' ? 'Stop' : 'Target';
  const raw = typeof text === 'number' ? text : Number(String(text).replace(/,/g, '').trim());
  if (typeof text === 'string' && text.trim() === '') return { ok: false, reason: `${word}: enter a price` };
  if (!Number.isFinite(raw)) return { ok: false, reason: `${word}: ${String(text)} is not a price` };
  if (raw <= 0) return { ok: false, reason: `${word} must be more than 0` };
  if (!isTickMultiple(raw, b.tick)) {
    const below = toNumber(roundToStep(exactOf(raw), exactOf(b.tick), 'floor'));
    const above = toNumber(roundToStep(exactOf(raw), exactOf(b.tick), 'ceil'));
    return {
      ok: false,
      reason: `${word} ${String(text).trim()} is off the tick ${b.tick}: ${formatPrice(below, b.tick)} or ${formatPrice(above, b.tick)}`,
    };
  }
  if (ltp != null && ltp > 0) {
    // The legs close the entry: a long's stop sells below the market, its target above it.
    const below = (side === 'stop') === (b.action === 'BUY');
    if (below && raw >= ltp)
      return {
        ok: false,
        reason: `${word} ${formatPrice(raw, b.tick)} must be below the last price ${formatPrice(ltp, b.tick)}`,
      };
    if (!below && raw <= ltp)
      return {
        ok: false,
        reason: `${word} ${formatPrice(raw, b.tick)} must be above the last price ${formatPrice(ltp, b.tick)}`,
      };
  }
  return { ok: true, price: raw };
}

/** The line nearest `y` within `tolerance` px (a drag starts there), or undefined. */
export function lineAt<T extends { y: number | null }>(
  y: number,
  lines: readonly T[],
  tolerance = 6,
): T | undefined {
  let best: T | undefined;
  let gap = tolerance + 1;
  for (const l of lines) {
    if (l.y === null) continue;
    const d = Math.abs(l.y - y);
    if (d <= tolerance && d < gap) {
      best = l;
      gap = d;
    }
  }
  return best;
}
