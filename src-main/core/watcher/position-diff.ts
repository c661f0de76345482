// Position book → position views and changes, pure. MTM is (ltp − average) × quantity, which holds
// for shorts too (negative quantity); it is null when no quote was had.
import type { PositionRecord, PositionView } from '../../contract/index.js';

export const positionKey = (p: { exchange: string; symbol: string; product: string }): string =>
  `${p.exchange}:${p.symbol}:${p.product}`;

export const quoteKey = (p: { exchange: string; symbol: string }): string => `${p.exchange}:${p.symbol}`;

export function toPositionView(p: PositionRecord, ltps: ReadonlyMap<string, number>): PositionView {
  const averagePrice = Number(p.average_price);
  const ltp = ltps.get(quoteKey(p)) ?? (p.ltp !== undefined && p.ltp > 0 ? p.ltp : null);
  const mtm =
    ltp === null || p.quantity === 0
      ? p.quantity === 0
        ? 0
        : null
      : round2((ltp - averagePrice) * p.quantity);
  return {
    symbol: p.symbol,
    exchange: p.exchange,
    product: p.product,
    quantity: p.quantity,
    averagePrice,
    ltp,
    mtm,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
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
