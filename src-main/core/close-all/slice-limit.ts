// The largest quantity one order of an instrument may carry: its freeze quantity (the gateway's
// `symbol` answer, `freeze_qty`), rounded down to whole lots. Answers are cached per instrument, as
// they do not change within a day; a failed read is not cached, so the next round asks again. Callers
// asking for one instrument at once share one read.
import { errorMessage } from '../../contract/index.js';
import type { GatewayClient } from '../../gateway/index.js';
import type { Read } from './fresh-books.js';

/** Infinity where the gateway states no freeze quantity (absent or 0). */
export type SliceLimit = (exchange: string, symbol: string) => Promise<Read<number>>;

/** A cached lookup over the gateway's `symbol` (reads in the client's lane). */
export function createSliceLimit(client: Pick<GatewayClient, 'symbol'>): SliceLimit {
  const known = new Map<string, number>();
  const asking = new Map<string, Promise<Read<number>>>();
  async function ask(exchange: string, symbol: string, key: string): Promise<Read<number>> {
    try {
      const r = await client.symbol({ exchange, symbol });
      if (!r.ok) return { ok: false, message: `${key}: freeze quantity not read: ${r.error.message}` };
      const limit = sliceLimitOf(r.value.data.freeze_qty, r.value.data.lotsize);
      known.set(key, limit);
      return { ok: true, value: limit };
    } catch (err) {
      return { ok: false, message: `${key}: freeze quantity not read: ${errorMessage(err)}` };
    } finally {
      asking.delete(key);
    }
  }
  return (exchange, symbol) => {
    const key = `${exchange}:${symbol}`;
    const cached = known.get(key);
    if (cached !== undefined) return Promise.resolve({ ok: true, value: cached });
    let pending = asking.get(key);
    if (!pending) {
      pending = ask(exchange, symbol, key);
      asking.set(key, pending);
    }
    return pending;
  };
}

/** Whole lots up to the freeze quantity (at least one lot); Infinity without a freeze quantity. */
export function sliceLimitOf(freezeQty: number | undefined, lotSize: number): number {
  if (freezeQty === undefined || !(freezeQty > 0)) return Infinity;
  const lot = lotSize > 0 ? lotSize : 1;
  return Math.max(lot, Math.floor(freezeQty / lot) * lot);
}

/** `quantity` cut into orders of at most `limit`: full slices first, the remainder last. */
export function slicesOf(quantity: number, limit: number): number[] {
  if (!(quantity > 0)) return [];
  if (!(limit > 0) || limit === Infinity || quantity <= limit) return [quantity];
  const out: number[] = [];
  for (let left = quantity; left > 0; left -= limit) out.push(Math.min(limit, left));
  return out;
}
