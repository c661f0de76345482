// The search answer the gateway serves: the index's matches (OpenAlgo's relevance classes and best
// 500) with each underlying's futures and options in expiry, then strike, order within their class
// (shared/contract-rank.ts), so `nifty fut` answers the nearest future first.
import { rankByExpiry } from '../../shared/contract-rank.js';
import type { Instrument } from './instrument.js';
import type { SearchIndex } from './search-index.js';
import { fieldsOf, parseQuery, scoreRow } from './search-query.js';

export function rankedSearch(index: SearchIndex, query: string, exchange?: string): Instrument[] {
  const rows = index.search(query, exchange);
  const q = parseQuery(query);
  const scores = rows.map((r) => scoreRow(fieldsOf(r), q));
  return rankByExpiry(rows, { tier: (_, i) => scores[i] ?? 0 });
}
