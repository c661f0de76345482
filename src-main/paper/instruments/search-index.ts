// Indexed symbol search with exactly the semantics of linearSearch (see search-query.ts), built for
// ~120k rows. A row's rank is its position in the final sort order (symbol length, symbol, id), so
// rows found in rank order within a score class are that class's best, and a query stops as soon as
// it holds enough of them.
//
// Phase 1 (scores 0 and 1: the symbol starts with the whole query) needs no verification: within
// each symbol length, ranks are sorted by symbol, so the rows with a given prefix are one contiguous
// run, found by binary search. Phase 2 (scores 2 and 3) joins one row set per term (the rows holding
// all of the term's n-grams; for a number, or those with that strike) and the exchange's rows,
// leapfrogging: every set jumps straight to the next row the others might share, so runs of rows
// missing from any set cost one galloping search, not one step each. Survivors are verified with
// scoreRow. Searches reuse their buffers, so a query allocates little beyond its answer.
import type { Instrument, InstrumentMaster } from './instrument.js';
import * as ngram from './ngram.js';
import { linearSearch } from './search-linear.js';
import { fieldsOf, parseQuery, scoreRow, SEARCH_LIMIT, type SearchFields } from './search-query.js';
import { END, GramCollector, RowSet, seek } from './search-postings.js';

export { linearSearch } from './search-linear.js';

// Hot-loop imports copied into module constants: loaders such as tsx and vitest turn imported bindings
// into property getters, which cost more than the loop body itself.
const { termGrams } = ngram;
export { SEARCH_LIMIT } from './search-query.js';

export interface SearchIndex {
  /** Best matches first, at most 500; [] for a query with no terms. */
  search(query: string, exchange?: string): Instrument[];
}

interface Built {
  /** By rank. */
  rows: Instrument[];
  fields: SearchFields[];
  exchangeOf: Uint8Array;
  exchangeCodes: Map<string, number>;
  byExchange: Int32Array[];
  /** CSR posting lists: ranks for key k are postings[offsets[k] .. offsets[k+1]). */
  offsets: Int32Array;
  postings: Int32Array;
  strikeRanks: Map<number, Int32Array>;
  /** Ranks of symbols of length l are lengthStart[l] .. lengthStart[l+1] (sorted by symbol). */
  lengthStart: Int32Array;
}

const builtFor = new WeakMap<readonly Instrument[], Built>();

/** The index is built on the first search (and shared by every index over the same rows). */
export function createSearchIndex(master: InstrumentMaster): SearchIndex {
  let built: Built | undefined;
  return {
    search(query: string, exchange?: string): Instrument[] {
      if (!built) {
        built = builtFor.get(master.all);
        if (!built) builtFor.set(master.all, (built = build(master.all)));
      }
      return search(built, query, exchange);
    },
  };
}

function build(all: readonly Instrument[]): Built {
  const n = all.length;
  const unranked = all.map(fieldsOf);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => {
    const sa = (unranked[a] as SearchFields).symbolU;
    const sb = (unranked[b] as SearchFields).symbolU;
    if (sa.length !== sb.length) return sa.length - sb.length;
    if (sa !== sb) return sa < sb ? -1 : 1;
    return (all[a] as Instrument).id - (all[b] as Instrument).id;
  });
  const rows = order.map((i) => all[i] as Instrument);
  const fields = order.map((i) => unranked[i] as SearchFields);

  const exchangeCodes = new Map<string, number>();
  const exchangeOf = new Uint8Array(n);
  const exchangeLists: number[][] = [];
  const strikeLists = new Map<number, number[]>();
  for (let r = 0; r < n; r++) {
    const inst = rows[r] as Instrument;
    let code = exchangeCodes.get(inst.exchange);
    if (code === undefined) {
      code = exchangeCodes.size;
      exchangeCodes.set(inst.exchange, code);
      exchangeLists.push([]);
    }
    exchangeOf[r] = code;
    exchangeLists[code]?.push(r);
    const strike = (fields[r] as SearchFields).strike;
    // Python only compares truthy strikes, so zero never matches.
    if (strike !== 0 && !Number.isNaN(strike)) {
      let list = strikeLists.get(strike);
      if (!list) strikeLists.set(strike, (list = []));
      list.push(r);
    }
  }

  // One pass collects each row's distinct gram keys (and counts them), a second scatters row ranks
  // into the CSR posting lists, which therefore come out sorted by rank.
  const grams = new GramCollector(n);
  for (let r = 0; r < n; r++) {
    const f = fields[r] as SearchFields;
    grams.text(f.symbolU, r);
    grams.text(f.brsymbolU, r);
    grams.text(f.nameU, r);
    grams.text(f.token, r);
    grams.endRow(r);
  }
  const { offsets, postings } = grams.postings();

  const strikeRanks = new Map<number, Int32Array>();
  for (const [strike, list] of strikeLists) strikeRanks.set(strike, Int32Array.from(list));
  const maxLength = n > 0 ? (fields[n - 1] as SearchFields).symbolU.length : 0;
  const lengthStart = new Int32Array(maxLength + 2);
  for (let len = 0, r = 0; len <= maxLength + 1; len++) {
    while (r < n && (fields[r] as SearchFields).symbolU.length < len) r++;
    lengthStart[len] = r;
  }
  return {
    rows,
    fields,
    exchangeOf,
    exchangeCodes,
    byExchange: exchangeLists.map((l) => Int32Array.from(l)),
    offsets,
    postings,
    strikeRanks,
    lengthStart,
  };
}

function postingOf(b: Built, key: number): Int32Array {
  return b.postings.subarray(b.offsets[key] as number, b.offsets[key + 1] as number);
}

/**
 * Buffers reused by every search over one index, so a query allocates little beyond its answer: fewer
 * garbage collections, whose pauses are what a typing trader feels in the tail. (Searches never
 * interleave: each runs to completion synchronously.)
 */
interface Scratch {
  head: Int32Array;
  second: Int32Array;
  third: Int32Array;
}

const scratchFor = new WeakMap<Built, Scratch>();

function scratchOf(b: Built): Scratch {
  let s = scratchFor.get(b);
  if (!s) {
    const buffer = () => new Int32Array(SEARCH_LIMIT);
    s = { head: buffer(), second: buffer(), third: buffer() };
    scratchFor.set(b, s);
  }
  return s;
}

/** First index in [lo, hi) whose symbol is not below `prefix` (the block is sorted by symbol). */
function lowerBound(b: Built, prefix: string, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((b.fields[mid] as SearchFields).symbolU < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose symbol does not start with `prefix` (those that do come first). */
function prefixEnd(b: Built, prefix: string, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((b.fields[mid] as SearchFields).symbolU.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function search(b: Built, query: string, exchange?: string): Instrument[] {
  const q = parseQuery(query);
  if (q.terms.length === 0) return [];
  // An exchange with no rows widens the search to every exchange, as the service does.
  const exCode = exchange ? (b.exchangeCodes.get(exchange) ?? -1) : -1;
  const own = exCode >= 0 ? b.byExchange[exCode] : undefined;
  const s = scratchOf(b);

  // Phase 1: symbols starting with the whole query (score 0 is the one equal to it, the shortest).
  let nHead = 0;
  let ownAt = 0;
  for (let len = q.whole.length; len + 1 < b.lengthStart.length && nHead < SEARCH_LIMIT; len++) {
    const start = lowerBound(b, q.whole, b.lengthStart[len] as number, b.lengthStart[len + 1] as number);
    const end = prefixEnd(b, q.whole, start, b.lengthStart[len + 1] as number);
    if (own) {
      ownAt = seek(own, ownAt, start);
      for (; ownAt < own.length && (own[ownAt] as number) < end && nHead < SEARCH_LIMIT; ownAt++)
        s.head[nHead++] = own[ownAt] as number;
    } else {
      for (let r = start; r < end && nHead < SEARCH_LIMIT; r++) s.head[nHead++] = r;
    }
  }
  const need = SEARCH_LIMIT - nHead;
  if (need === 0) return answer(b, s, nHead, 0, 0);

  // Phase 2: one row set per term (and the exchange's), smallest first; the smallest drives.
  const sets: RowSet[] = q.terms.map((term, i) => {
    const grams = termGrams(term)
      .map((k) => postingOf(b, k))
      .sort((x, y) => x.length - y.length);
    const num = q.numbers[i] ?? null;
    // Python only compares truthy strikes, so zero never matches a number.
    const strikes = num !== null && num !== 0 ? (b.strikeRanks.get(num) ?? null) : null;
    return new RowSet(grams, strikes);
  });
  if (own) sets.push(new RowSet([own]));
  sets.sort((x, y) => x.size - y.size);
  const driver = sets[0] as RowSet;
  const others = sets.slice(1);

  let nSecond = 0;
  let nThird = 0;
  let r = driver.first(0);
  walk: while (r !== END) {
    for (const set of others) {
      const v = set.first(r);
      if (v === END) break walk;
      if (v !== r) {
        r = driver.first(v);
        continue walk;
      }
    }
    // In every set: verify (n-grams do not prove the term itself), then place by score. Rank order
    // means the first `need` score-2 rows are the best ones, so the walk stops there.
    const score = scoreRow(b.fields[r] as SearchFields, q);
    if (score === 2) {
      s.second[nSecond++] = r;
      if (nSecond === need) break;
    } else if (score === 3 && nThird < need) {
      s.third[nThird++] = r;
    }
    r = driver.first(r + 1);
  }
  return answer(b, s, nHead, nSecond, nThird);
}

/** Head rows, then score-2 rows, then score-3 rows, at most SEARCH_LIMIT in all. */
function answer(b: Built, s: Scratch, nHead: number, nSecond: number, nThird: number): Instrument[] {
  // Sized once: growing by push would copy a full answer's array a few times over.
  const out = new Array<Instrument>(Math.min(SEARCH_LIMIT, nHead + nSecond + nThird));
  let n = 0;
  const take = (list: Int32Array, count: number): void => {
    for (let k = 0; k < count && n < out.length; k++) out[n++] = b.rows[list[k] as number] as Instrument;
  };
  take(s.head, nHead);
  take(s.second, nSecond);
  take(s.third, nThird);
  return out;
}

/** For tests and the benchmark: the plain reference implementation, same signature as the index. */
export function createLinearSearch(master: InstrumentMaster): SearchIndex {
  return { search: (query, exchange) => linearSearch(master, query, exchange) };
}
