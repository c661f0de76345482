// Position book → position views and changes, pure. MTM is (ltp − average) × quantity, which holds
// for shorts too (negative quantity); it is null when no quote was had. It is worked out in exact
// decimals and rounded once, to the paisa, so 0.05 × 3 is 0.15 and never 0.15000000000000002.
import type { PositionRecord, PositionView } from '../../contract/index.js';
import { decimalsOf, toScaled } from '../../shared/decimal.js';

export const positionKey = (p: { exchange: string; symbol: string; product: string }): string =>
  `${p.exchange}:${p.symbol}:${p.product}`;

export const quoteKey = (p: { exchange: string; symbol: string }): string => `${p.exchange}:${p.symbol}`;

export function toPositionView(p: PositionRecord, ltps: ReadonlyMap<string, number>): PositionView {
  const averagePrice = Number(p.average_price);
  const ltp = ltps.get(quoteKey(p)) ?? (p.ltp !== undefined && p.ltp > 0 ? p.ltp : null);
  const mtm = p.quantity === 0 ? 0 : ltp === null ? null : mtmOf(ltp, averagePrice, p.quantity);
  // A live gateway's flat row has its day's P&L in `pnl` (all of it realised); the sandbox says it apart.
  const realised = p.today_realized_pnl ?? (p.quantity === 0 ? p.pnl : undefined);
  return {
    symbol: p.symbol,
    exchange: p.exchange,
    product: p.product,
    quantity: p.quantity,
    averagePrice,
    ltp,
    mtm,
    ...(realised !== undefined ? { realised } : {}),
  };
}

/** Paise in a rupee amount: the scale money is summed and rounded at. */
const PAISE = 2;

/** `scaled` (an integer count of 10^-places) rounded half away from zero to `PAISE` places. */
function toPaise(scaled: bigint, places: number): bigint {
  if (places <= PAISE) return scaled * 10n ** BigInt(PAISE - places);
  const divisor = 10n ** BigInt(places - PAISE);
  const half = divisor / 2n;
  const magnitude = scaled < 0n ? -scaled : scaled;
  const rounded = (magnitude + half) / divisor;
  return scaled < 0n ? -rounded : rounded;
}

/** (ltp − average) × quantity, exact, rounded to the paisa. */
export function mtmOf(ltp: number, averagePrice: number, quantity: number): number {
  const places = Math.max(decimalsOf(ltp), decimalsOf(averagePrice));
  const qPlaces = decimalsOf(quantity);
  const diff = toScaled(ltp, places) - toScaled(averagePrice, places);
  return Number(toPaise(diff * toScaled(quantity, qPlaces), places + qPlaces)) / 100;
}

/** The sum of MTM amounts (each to the paisa), exact; null when any is null. */
export function totalMtm(amounts: readonly (number | null)[]): number | null {
  let paise = 0n;
  for (const m of amounts) {
    if (m === null) return null;
    const places = Math.max(PAISE, decimalsOf(m));
    paise += toPaise(toScaled(m, places), places);
  }
  return Number(paise) / 100;
}

export interface PositionChange {
  position: PositionView;
  previousQuantity: number;
}

/**
 * Quantity changes since `seen` (undefined: no baseline, nothing reported). A position that left the
 * book is reported as flat.
 */
export function diffPositions(
  seen: ReadonlyMap<string, number> | undefined,
  views: readonly PositionView[],
): { changes: PositionChange[]; next: Map<string, number> } {
  const next = new Map<string, number>();
  const changes: PositionChange[] = [];
  for (const v of views) {
    const key = positionKey(v);
    next.set(key, v.quantity);
    const before = seen?.get(key) ?? 0;
    if (seen && before !== v.quantity) changes.push({ position: v, previousQuantity: before });
  }
  for (const [key, quantity] of seen ?? []) {
    if (next.has(key) || quantity === 0) continue;
    const [exchange = '', symbol = '', product = ''] = key.split(':');
    next.set(key, 0);
    changes.push({
      position: { exchange, symbol, product, quantity: 0, averagePrice: 0, ltp: null, mtm: 0 },
      previousQuantity: quantity,
    });
  }
  return { changes, next };
}
