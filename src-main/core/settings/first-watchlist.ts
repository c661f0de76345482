// The first start's watchlist: the default list 1 (NIFTY, BANKNIFTY, large caps) gets the near NIFTY
// future after the indices, found in the gateway's own instrument master by search (never a symbol
// written in the code, which would go stale at the next expiry). Only on the first start, and only
// while list 1 is still the default: a watchlist the trader has is never replaced.
import { DEFAULT_WATCHLISTS, type SearchResponse } from '../../contract/index.js';
import type { GatewayResult } from '../../gateway/index.js';
import { expiryKey } from '../../shared/contract-rank.js';
import { formatIstIso } from '../../shared/format.js';
import type { Logger } from '../ports.js';
import type { SettingsStore } from './settings-store.js';

export interface FirstWatchlistDeps {
  settings: SettingsStore;
  /** The gateway's search (the active session's client). */
  search: (input: { query: string; exchange: 'NFO' }) => Promise<GatewayResult<SearchResponse>>;
  now: () => number;
  logger?: Logger;
}

const UNDERLYING = 'NIFTY';
/** Where the future goes on list 1: after the last index. */
const AFTER = 'BANKNIFTY';

/** The nearest NIFTY future not yet expired on `today` (YYYYMMDD), from a search answer. */
export function nearFuture(
  rows: SearchResponse['data'],
  today: number,
): { symbol: string; exchange: string } | undefined {
  let best: { symbol: string; exchange: string; key: number } | undefined;
  for (const r of rows) {
    const isFuture =
      r.instrumenttype.toUpperCase().startsWith('FUT') || r.symbol.toUpperCase().endsWith('FUT');
    if (!isFuture || r.name.toUpperCase() !== UNDERLYING || r.exchange !== 'NFO') continue;
    const key = expiryKey(r.expiry);
    if (key === null || key < today) continue;
    if (!best || key < best.key) best = { symbol: r.symbol, exchange: r.exchange, key };
  }
  return best && { symbol: best.symbol, exchange: best.exchange };
}

/** Adds the near NIFTY future to list 1 on the first start; says why in the log when it cannot. */
export async function seedFirstWatchlist(d: FirstWatchlistDeps): Promise<void> {
  if (!d.settings.firstStart()) return;
  const same = (a: readonly { symbol: string; exchange: string }[], b: typeof a) =>
    a.length === b.length && a.every((x, i) => x.symbol === b[i]?.symbol && x.exchange === b[i]?.exchange);
  if (!same(d.settings.get().watchlists[0]?.items ?? [], DEFAULT_WATCHLISTS[0]?.items ?? [])) return;
  const res = await d.search({ query: UNDERLYING, exchange: 'NFO' });
  if (!res.ok) {
    d.logger?.warn('the first watchlist has no NIFTY future: the search was refused', {
      reason: res.error.message,
    });
    return;
  }
  const today = expiryKey(formatIstIso(d.now()).slice(0, 10)) ?? 0;
  const future = nearFuture(res.value.data, today);
  if (!future) return;
  await d.settings.update((s) => {
    const [first, ...rest] = s.watchlists;
    // Changed meanwhile (the trader was quicker): left as it is.
    if (!first || !same(first.items, DEFAULT_WATCHLISTS[0]?.items ?? [])) return s;
    const at = first.items.findIndex((i) => i.symbol === AFTER) + 1;
    const item = { symbol: future.symbol, exchange: 'NFO' as const };
    const items = [...first.items.slice(0, at), item, ...first.items.slice(at)];
    return { ...s, watchlists: [{ ...first, items }, ...rest] };
  });
}
