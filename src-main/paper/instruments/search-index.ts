// Indexed symbol search with exactly the semantics of linearSearch (see search-query.ts), built for
// ~120k rows: n-gram posting lists of row ranks, where a row's rank is its position in the final sort
// order (symbol length, symbol, id). Iterating candidates in rank order means the first 500 rows found
// in a score class are that class's best 500, so most queries stop early instead of scanning.
//
// Phase 1 collects the score-0/1 rows (symbol starts with the whole query) from the list of symbols
// sharing its first three characters. Phase 2 walks the most selective candidate list (the shortest
// posting list of any term, the union with the strike list for a numeric term, or the exchange's
// rows), skips rows missing from other terms' lists, verifies the rest with scoreRow, and stops once
// it holds enough score-2 rows to fill the result.
import type { Instrument, InstrumentMaster } from './instrument.js';
import * as ngram from './ngram.js';
import { linearSearch } from './search-linear.js';
import {
  fieldsOf,
  parseQuery,
  PY_SPACE_RE,
  scoreRow,
  SEARCH_LIMIT,
  type SearchFields,
} from './search-query.js';

export { linearSearch } from './search-linear.js';

// Hot-loop imports copied into module constants: loaders such as tsx and vitest turn imported bindings
// into property getters, which cost more than the loop body itself.
const { anchorGram, charCode, isPySpace, termGrams } = ngram;
const { BIGRAM_BASE, KEY_SPACE, TRIGRAM_BASE, UNIGRAM_BASE } = ngram;
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
  symbolsHaveSpace: boolean;
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
  let symbolsHaveSpace = false;
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
    if (PY_SPACE_RE.test((fields[r] as SearchFields).symbolU)) symbolsHaveSpace = true;
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
    grams.anchors(f.symbolU, r);
    grams.endRow(r);
  }
  const { offsets, postings } = grams.postings();

  const strikeRanks = new Map<number, Int32Array>();
  for (const [strike, list] of strikeLists) strikeRanks.set(strike, Int32Array.from(list));
  return {
    rows,
    fields,
    exchangeOf,
    exchangeCodes,
    byExchange: exchangeLists.map((l) => Int32Array.from(l)),
    offsets,
    postings,
    strikeRanks,
    symbolsHaveSpace,
  };
}

/** Distinct gram keys per row, in one flat buffer, plus per-key counts. */
class GramCollector {
  private buf = new Int32Array(1 << 22);
  private len = 0;
  private readonly rowEnd: Int32Array;
  private readonly counts = new Int32Array(KEY_SPACE + 1);
  private readonly stamp = new Int32Array(KEY_SPACE).fill(-1);

  constructor(private readonly rows: number) {
    this.rowEnd = new Int32Array(rows);
  }

  private add(key: number, row: number): void {
    if (this.stamp[key] === row) return;
    this.stamp[key] = row;
    if (this.len === this.buf.length) {
      const bigger = new Int32Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.len++] = key;
    (this.counts[key + 1] as number)++;
  }

  /** Unigrams, bigrams and trigrams inside the words of `text` (same rules as ngram.forEachGram). */
  text(text: string, row: number): void {
    let p1 = -1;
    let p2 = -1;
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      if (isPySpace(u)) {
        p1 = p2 = -1;
        continue;
      }
      const c = charCode(u);
      this.add(UNIGRAM_BASE + c, row);
      if (p1 >= 0) this.add(BIGRAM_BASE + p1 * 64 + c, row);
      if (p2 >= 0) this.add(TRIGRAM_BASE + p2 * 4096 + p1 * 64 + c, row);
      p2 = p1;
      p1 = c;
    }
  }

  /** Symbol-start grams of length 1, 2 and 3 (same rules as ngram.anchorGram). */
  anchors(symbol: string, row: number): void {
    for (let len = 1; len <= 3 && len <= symbol.length; len++)
      this.add(anchorGram(symbol.slice(0, len)), row);
  }

  endRow(row: number): void {
    this.rowEnd[row] = this.len;
  }

  postings(): { offsets: Int32Array; postings: Int32Array } {
    const offsets = this.counts;
    for (let k = 0; k < KEY_SPACE; k++) offsets[k + 1] = (offsets[k + 1] as number) + (offsets[k] as number);
    const postings = new Int32Array(offsets[KEY_SPACE] as number);
    const cursor = offsets.slice(0, KEY_SPACE);
    let j = 0;
    for (let r = 0; r < this.rows; r++) {
      const end = this.rowEnd[r] as number;
      for (; j < end; j++) postings[(cursor[this.buf[j] as number] as number)++] = r;
    }
    return { offsets, postings };
  }
}

function postingOf(b: Built, key: number): Int32Array {
  return b.postings.subarray(b.offsets[key] as number, b.offsets[key + 1] as number);
}

/** Candidate rows in rank order: one list, or the merge of two (a numeric term's text OR strike). */
interface Driver {
  main: Int32Array;
  extra: Int32Array | null;
  size: number;
}

const END = 0x7fffffff;

/** 1: r is in every list; 0: it is missing from one; -1: a list is exhausted (so no later row fits). */
function probe(lists: readonly Int32Array[], cursors: number[], r: number): number {
  for (let f = 0; f < lists.length; f++) {
    const list = lists[f] as Int32Array;
    const at = seek(list, cursors[f] as number, r);
    cursors[f] = at;
    if (at >= list.length) return -1;
    if (list[at] !== r) return 0;
  }
  return 1;
}

/** Rows present in every list (lists ascending, shortest first). */
function intersect(lists: readonly Int32Array[]): Int32Array {
  const [shortest, ...rest] = lists;
  if (!shortest) return new Int32Array(0);
  const out = new Int32Array(shortest.length);
  const cursors = new Array<number>(rest.length).fill(0);
  let n = 0;
  for (let i = 0; i < shortest.length; i++) {
    const r = shortest[i] as number;
    const seen = probe(rest, cursors, r);
    if (seen < 0) break;
    if (seen === 1) out[n++] = r;
  }
  return out.subarray(0, n);
}

/** Smallest index >= from whose value is >= target (galloping, then binary search). */
function seek(list: Int32Array, from: number, target: number): number {
  const len = list.length;
  let lo = from;
  if (lo >= len || (list[lo] as number) >= target) return lo;
  let step = 1;
  let hi = lo + 1;
  while (hi < len && (list[hi] as number) < target) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > len) hi = len;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** At most this many extra lists are used to discard candidates before verification. */
const MAX_FILTERS = 3;

function search(b: Built, query: string, exchange?: string): Instrument[] {
  const q = parseQuery(query);
  if (q.terms.length === 0) return [];
  const exCode = exchange ? (b.exchangeCodes.get(exchange) ?? -1) : -1;

  // Each term's gram posting lists, shortest first: a row containing the term is in all of them.
  const termLists = q.terms.map((t) =>
    termGrams(t)
      .map((k) => postingOf(b, k))
      .sort((x, y) => x.length - y.length),
  );

  // Phase 1: rows whose symbol starts with the whole query (scores 0 and 1), best first. Such a
  // symbol contains every term, so every term's gram lists can discard candidates.
  const head: number[] = [];
  if (q.whole.length > 0 && !(PY_SPACE_RE.test(q.whole) && !b.symbolsHaveSpace)) {
    // Symbols sharing the query's first characters, or the exchange's rows if that list is shorter.
    const anchored = postingOf(b, anchorGram(q.whole));
    const own = exCode >= 0 ? b.byExchange[exCode] : undefined;
    const list = own && own.length < anchored.length ? own : anchored;
    const checks = termLists
      .flat()
      .sort((x, y) => x.length - y.length)
      .slice(0, MAX_FILTERS);
    const at = new Array<number>(checks.length).fill(0);
    for (let i = 0; i < list.length; i++) {
      const r = list[i] as number;
      if (exCode >= 0 && b.exchangeOf[r] !== exCode) continue;
      const seen = probe(checks, at, r);
      if (seen < 0) break;
      if (seen === 0) continue;
      if ((b.fields[r] as SearchFields).symbolU.startsWith(q.whole)) {
        head.push(r);
        if (head.length === SEARCH_LIMIT) return head.map((x) => b.rows[x] as Instrument);
      }
    }
  }
  const need = SEARCH_LIMIT - head.length;

  // Phase 2: choose the driver (smallest superset of the matches) and the filters.
  const own = exCode >= 0 ? b.byExchange[exCode] : undefined;
  let driver: Driver | null = own ? { main: own, extra: null, size: own.length } : null;
  const filters: Int32Array[] = [];
  for (let i = 0; i < q.terms.length; i++) {
    const grams = termLists[i] ?? [];
    if (grams.length === 0) continue;
    const num = q.numbers[i] ?? null;
    if (num === null) {
      filters.push(...grams);
      continue;
    }
    // A numeric term may match through the strike instead of text: its superset is text OR strike,
    // walked as a merge of the two lists rather than materialised.
    const strikes = num !== 0 && Number.isFinite(num) ? (b.strikeRanks.get(num) ?? null) : null;
    const smallest = grams[0] as Int32Array;
    const size = smallest.length + (strikes?.length ?? 0);
    if (driver === null || size < driver.size) {
      driver = { main: grams.length > 1 ? intersect(grams) : smallest, extra: strikes, size };
      driver.size = driver.main.length + (strikes?.length ?? 0);
    }
  }
  filters.sort((x, y) => x.length - y.length);
  const first = filters[0];
  if (first && (driver === null || first.length < driver.size)) {
    driver = { main: first, extra: null, size: first.length };
    filters.shift();
  }
  const active = filters.slice(0, MAX_FILTERS);
  const cursors = new Array<number>(active.length).fill(0);

  const second: number[] = [];
  const third: number[] = [];
  const main = driver?.main ?? null;
  const extra = driver?.extra ?? null;
  let i = 0;
  let j = 0;
  for (;;) {
    let r: number;
    if (main === null) {
      if (i >= b.rows.length) break;
      r = i++;
    } else {
      const x = i < main.length ? (main[i] as number) : END;
      const y = extra !== null && j < extra.length ? (extra[j] as number) : END;
      if (x === END && y === END) break;
      if (x <= y) {
        r = x;
        i++;
        if (x === y) j++;
      } else {
        r = y;
        j++;
      }
    }
    if (exCode >= 0 && b.exchangeOf[r] !== exCode) continue;
    const seen = probe(active, cursors, r);
    if (seen < 0) break;
    if (seen === 0) continue;
    const score = scoreRow(b.fields[r] as SearchFields, q);
    if (score === 2) {
      second.push(r);
      if (second.length >= need) break;
    } else if (score === 3 && third.length < need) {
      third.push(r);
    }
  }
  return [...head, ...second, ...third].slice(0, SEARCH_LIMIT).map((x) => b.rows[x] as Instrument);
}

/** For tests and the benchmark: the plain reference implementation, same signature as the index. */
export function createLinearSearch(master: InstrumentMaster): SearchIndex {
  return { search: (query, exchange) => linearSearch(master, query, exchange) };
}
