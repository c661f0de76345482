// The search answer the gateway serves: the index's matches (OpenAlgo's relevance classes) with each
// underlying's futures and options in expiry, then strike, order within their class
// (shared/contract-rank.ts), so `nifty fut` answers the nearest future first. The index keeps the 500
// best by OpenAlgo's order (symbol length, then text), which for a broad query like `nifty ce` cuts
// an underlying's contracts by text (05 JAN kept, 15 DEC dropped); so when the answer is full, every
// matching contract of each underlying in it joins its group before the ranking and the cut.
import { rankByExpiry } from '../../shared/contract-rank.js';
import type { Instrument, InstrumentMaster } from './instrument.js';
import type { SearchIndex } from './search-index.js';
import { fieldsOf, parseQuery, scoreRow, SEARCH_LIMIT, type ParsedQuery } from './search-query.js';

const isDerivative = (r: Instrument) => r.kind === 'FUT' || r.kind === 'CE' || r.kind === 'PE';
const familyOf = (r: Instrument) => (r.kind === 'FUT' ? 'FUT' : 'OPT');
const groupOf = (r: Instrument, score: number) => `${score}|${r.exchange}|${r.name}|${familyOf(r)}`;

export function rankedSearch(
  index: SearchIndex,
  master: InstrumentMaster,
  query: string,
  exchange?: string,
): Instrument[] {
  const rows = index.search(query, exchange);
  const q = parseQuery(query);
  const scores = new Map<Instrument, number>(rows.map((r) => [r, scoreRow(fieldsOf(r), q)]));
  const all = rows.length >= SEARCH_LIMIT ? withWholeGroups(rows, master, q, scores) : rows;
  return rankByExpiry(all, { tier: (r) => scores.get(r as Instrument) ?? 0 }).slice(0, SEARCH_LIMIT);
}

/** `rows` plus the matching contracts of the same underlying, family and class the cut left out. */
function withWholeGroups(
  rows: readonly Instrument[],
  master: InstrumentMaster,
  q: ParsedQuery,
  scores: Map<Instrument, number>,
): Instrument[] {
  const groups = new Set(rows.filter(isDerivative).map((r) => groupOf(r, scores.get(r) ?? 0)));
  const out = [...rows];
  const underlyings = new Set<string>();
  for (const r of rows) {
    const key = `${r.exchange}|${r.name}`;
    if (!isDerivative(r) || underlyings.has(key)) continue;
    underlyings.add(key);
    for (const d of master.derivatives(r.exchange, r.name)) {
      if (scores.has(d)) continue;
      const score = scoreRow(fieldsOf(d), q);
      if (score < 0 || !groups.has(groupOf(d, score))) continue;
      scores.set(d, score);
      out.push(d);
    }
  }
  return out;
}
