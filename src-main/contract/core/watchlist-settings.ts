// The desk's watchlists (tabs 1–5) as persisted in settings.json, and the lists a first start gets.
import { z } from 'zod';
import { EXCHANGES, symbolText } from '../gateway/primitives.js';

/** Watchlist tabs 1–5, as Kite's numbered lists. */
export const WATCHLIST_COUNT = 5;
export const WATCHLIST_MAX_ITEMS = 50;

/** One instrument on a watchlist: the gateway's `{symbol, exchange}` pair. */
export const WatchlistItem = z.object({
  symbol: symbolText(),
  exchange: z.enum(EXCHANGES, { error: `exchange must be one of: ${EXCHANGES.join(', ')}` }),
});
export type WatchlistItem = z.infer<typeof WatchlistItem>;

export const Watchlist = z.object({
  name: z.string().trim().min(1, 'a watchlist needs a name').max(24, 'watchlist name: at most 24 characters'),
  items: z
    .array(WatchlistItem)
    .max(WATCHLIST_MAX_ITEMS, `a watchlist holds at most ${WATCHLIST_MAX_ITEMS} instruments`)
    .refine(
      (items) => new Set(items.map((i) => `${i.exchange}:${i.symbol}`)).size === items.length,
      'a watchlist lists an instrument once',
    ),
});
export type Watchlist = z.infer<typeof Watchlist>;

const emptyList = (n: number): Watchlist => ({ name: String(n), items: [] });
/**
 * What a trader expects on first start: the two big indices and large caps. The near NIFTY future is
 * added after the indices at the first start from the gateway's own master
 * (core/settings/first-watchlist.ts), never written here, where it would go stale at its expiry.
 */
export const DEFAULT_WATCHLISTS: Watchlist[] = [
  {
    name: '1',
    items: [
      { symbol: 'NIFTY', exchange: 'NSE_INDEX' },
      { symbol: 'BANKNIFTY', exchange: 'NSE_INDEX' },
      { symbol: 'RELIANCE', exchange: 'NSE' },
      { symbol: 'HDFCBANK', exchange: 'NSE' },
      { symbol: 'ICICIBANK', exchange: 'NSE' },
      { symbol: 'INFY', exchange: 'NSE' },
      { symbol: 'TCS', exchange: 'NSE' },
      { symbol: 'SBIN', exchange: 'NSE' },
    ],
  },
  ...[2, 3, 4, 5].map(emptyList),
];

/** Always WATCHLIST_COUNT lists (tabs 1–5): a shorter saved array gets empty lists appended. */
export const Watchlists = z
  .array(Watchlist)
  .max(WATCHLIST_COUNT, `at most ${WATCHLIST_COUNT} watchlists`)
  .transform((lists) => [
    ...lists,
    ...Array.from({ length: WATCHLIST_COUNT - lists.length }, (_, i) => emptyList(lists.length + i + 1)),
  ]);
