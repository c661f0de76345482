// The search index's posting lists: gram keys collected per row into CSR lists (ranks by gram key),
// and row sets joined over them by leapfrogging, every list galloping to the next row the others may
// share.
import * as ngram from './ngram.js';

// Hot-loop imports copied into module constants: loaders such as tsx and vitest turn imported bindings
// into property getters, which cost more than the loop body itself.
const { forEachGram, KEY_SPACE } = ngram;

/** Distinct gram keys per row, in one flat buffer, plus per-key counts. */
export class GramCollector {
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

  /** Unigrams, bigrams and trigrams inside the words of `text` (ngram.forEachGram). */
  text(text: string, row: number): void {
    forEachGram(text, (key) => this.add(key, row));
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

/** Past every row: what a row set answers when it holds no more. */
export const END = 0x7fffffff;

/** Smallest index >= from whose value is >= target (galloping, then binary search). */
export function seek(list: Int32Array, from: number, target: number): number {
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

/**
 * The rows in every one of `all` (ascending rank lists, shortest first), plus those of `or` when set:
 * a numeric term matches by its text or by the strike. `first` reads it in rank order; its cursors
 * only move forward, so calls must not go back.
 */
export class RowSet {
  /** Upper bound of the rows in the set; the shortest set drives a join. */
  readonly size: number;
  private readonly at: number[];
  private orAt = 0;

  constructor(
    private readonly all: readonly Int32Array[],
    private readonly or: Int32Array | null = null,
  ) {
    this.at = new Array<number>(all.length).fill(0);
    this.size = (all[0]?.length ?? 0) + (or?.length ?? 0);
  }

  /** The smallest row >= r in the set, or END. */
  first(r: number): number {
    let best = this.firstInAll(r);
    const or = this.or;
    if (or !== null) {
      this.orAt = seek(or, this.orAt, r);
      const v = this.orAt < or.length ? (or[this.orAt] as number) : END;
      if (v < best) best = v;
    }
    return best;
  }

  /** Leapfrog over `all`: each list jumps to the candidate until every list agrees on one row. */
  private firstInAll(r: number): number {
    const lists = this.all;
    const n = lists.length;
    if (n === 0) return END;
    let agree = 0;
    for (let f = 0; agree < n; f = f + 1 === n ? 0 : f + 1) {
      const list = lists[f] as Int32Array;
      const i = seek(list, this.at[f] as number, r);
      this.at[f] = i;
      if (i >= list.length) return END;
      const v = list[i] as number;
      if (v === r) agree++;
      else {
        r = v;
        agree = 1;
      }
    }
    return r;
  }
}
