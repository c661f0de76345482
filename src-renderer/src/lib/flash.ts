// Which cells of a depth book (or an LTP) changed from one tick to the next, and which way, for the
// 300 ms flash. A cell keeps its last flash until it changes again; each change flips `odd`, so the
// CSS animation name alternates and restarts even when two changes in a row go the same way. A cell
// flashes at most once per FLASH_MS: at 10 updates/s a flash on every tick is noise, not news.
import type { MarketDepthEvent } from '@contract';

export type FlashDir = 'up' | 'down';
export interface Flash {
  dir: FlashDir;
  odd: boolean;
  /** When it started (ms, the caller's clock). */
  at: number;
}

/** The flash's length, and the least time between two flashes of one cell. */
export const FLASH_MS = 300;
export type FlashMap = Readonly<Record<string, Flash>>;

/** The class a flashing cell carries (`flash-up-a`), or '' for one that never changed. */
export function flashClass(f: Flash | undefined): string {
  return f ? `flash-${f.dir}-${f.odd ? 'b' : 'a'}` : '';
}

/**
 * The next flash of one cell: unchanged values keep the old flash, a change starts a new one unless
 * the cell flashed less than FLASH_MS ago (the value still shows; only the flash is skipped).
 */
export function nextFlash(
  prev: Flash | undefined,
  before: number | undefined,
  after: number,
  now: number,
): Flash | undefined {
  if (before === undefined || before === after || !Number.isFinite(before) || !Number.isFinite(after))
    return prev;
  if (prev && now - prev.at < FLASH_MS) return prev;
  return { dir: after > before ? 'up' : 'down', odd: !(prev?.odd ?? false), at: now };
}

const SIDES = ['bids', 'asks'] as const;

/**
 * Flashes for `next` against `prev` (the same instrument's previous book): the LTP, the best bid and
 * ask when they change, and a deeper level's price (`bids.2.price`) only when the best stayed and
 * that price is new to its side (a level that appeared inside the book). When the book steps, every
 * level's price moves: the best says so, and tinting the rest lit whole columns on every tick.
 * Quantities, totals and volume change on nearly every tick, so they never flash. A different
 * instrument starts clean.
 */
export function depthFlashes(
  prev: MarketDepthEvent | undefined,
  next: MarketDepthEvent,
  flashes: FlashMap,
  now: number,
): FlashMap {
  if (!prev || prev.symbol !== next.symbol || prev.exchange !== next.exchange) return {};
  const out: Record<string, Flash> = {};
  const put = (key: string, before: number | undefined, after: number) => {
    const f = nextFlash(flashes[key], before, after, now);
    if (f) out[key] = f;
  };
  for (const side of SIDES) {
    const known = new Set(prev[side].map((l) => l.price));
    const bestMoved = prev[side][0]?.price !== next[side][0]?.price;
    next[side].forEach((level, i) => {
      const key = `${side}.${i}.price`;
      const before = prev[side][i]?.price;
      // A deeper row that changed with the best, or shows a price the side had: its old flash ends.
      if (i > 0 && before !== level.price && (bestMoved || known.has(level.price))) return;
      put(key, before, level.price);
    });
  }
  put('ltp', prev.ltp, next.ltp);
  return out;
}
