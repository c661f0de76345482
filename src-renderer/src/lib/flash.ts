// Which cells of a depth book (or an LTP) changed from one tick to the next, and which way, for the
// 300 ms flash. A cell keeps its last flash until it changes again; each change flips `odd`, so the
// CSS animation name alternates and restarts even when two changes in a row go the same way.
import type { MarketDepthEvent } from '../../../src-main/contract/index.js';

export type FlashDir = 'up' | 'down';
export interface Flash {
  dir: FlashDir;
  odd: boolean;
}
export type FlashMap = Readonly<Record<string, Flash>>;

/** The class a flashing cell carries (`flash-up-a`), or '' for one that never changed. */
export function flashClass(f: Flash | undefined): string {
  return f ? `flash-${f.dir}-${f.odd ? 'b' : 'a'}` : '';
}

/** The next flash of one cell: unchanged values keep the old flash, a change starts a new one. */
export function nextFlash(
  prev: Flash | undefined,
  before: number | undefined,
  after: number,
): Flash | undefined {
  if (before === undefined || before === after || !Number.isFinite(before) || !Number.isFinite(after))
    return prev;
  return { dir: after > before ? 'up' : 'down', odd: !(prev?.odd ?? false) };
}

const SIDES = ['bids', 'asks'] as const;
const SESSION = ['ltp', 'volume', 'oi', 'totalBuyQty', 'totalSellQty', 'high', 'low'] as const;

/**
 * Flashes for `next` against `prev` (the same instrument's previous book): per level price and
 * quantity by position (`bids.0.price`), and the session figures. A different instrument starts clean.
 */
export function depthFlashes(
  prev: MarketDepthEvent | undefined,
  next: MarketDepthEvent,
  flashes: FlashMap,
): FlashMap {
  if (!prev || prev.symbol !== next.symbol || prev.exchange !== next.exchange) return {};
  const out: Record<string, Flash> = {};
  const put = (key: string, before: number | undefined, after: number) => {
    const f = nextFlash(flashes[key], before, after);
    if (f) out[key] = f;
  };
  for (const side of SIDES)
    next[side].forEach((level, i) => {
      const old = prev[side][i];
      put(`${side}.${i}.price`, old?.price, level.price);
      put(`${side}.${i}.quantity`, old?.quantity, level.quantity);
    });
  for (const k of SESSION) put(k, prev[k], next[k]);
  return out;
}
