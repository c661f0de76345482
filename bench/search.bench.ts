// Symbol search: indexed search vs the plain linear scan over the full paper master (~120k rows).
// Run with `npx tsx bench/run.ts search`.
import { istToday } from '../src-main/paper/instruments/calendar.js';
import type { Instrument } from '../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../src-main/paper/instruments/master.js';
import { createSearchIndex, linearSearch } from '../src-main/paper/instruments/search-index.js';

const INDEX_REPS = 9;
const LINEAR_REPS = 3;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

interface Query {
  text: string;
  exchange?: string;
}

/** A fixed mix of ~200 queries, drawn from the master with a fixed stride so runs are comparable. */
function querySet(all: readonly Instrument[]): Query[] {
  const pick = (i: number, filter: (r: Instrument) => boolean): Instrument => {
    const rows = all.filter(filter);
    return rows[(i * 7919) % rows.length] as Instrument;
  };
  const qs: Query[] = [];
  // Exact symbols of every kind.
  for (let i = 0; i < 40; i++) qs.push({ text: pick(i, () => true).symbol });
  // Partial company and index names.
  for (const t of [
    'reliance',
    'tata',
    'bank',
    'hdfc',
    'infos',
    'adani',
    'power',
    'india',
    'pharma',
    'steel',
    'finance',
    'motor',
    'cement',
    'life insurance',
    'state bank',
    'nifty bank',
    'larsen',
    'airtel',
    'mahindra',
    'bajaj',
    'oil',
    'gas',
    'icici',
    'kotak',
    'sun',
    'titan',
    'asian paints',
    'hindustan',
    'vedanta',
    'coal',
  ]) {
    qs.push({ text: t });
  }
  // Option queries: strike + type, month, strike + month + type.
  const options = (r: Instrument) => r.kind === 'CE' || r.kind === 'PE';
  for (let i = 0; i < 60; i++) {
    const r = pick(i + 100, options);
    const month = MONTHS[Number(r.expiryDate?.slice(5, 7)) - 1] ?? 'DEC';
    const forms = [
      `${r.name} ${r.strike} ${r.kind}`,
      `${r.name} ${month}`,
      `${r.name} ${r.strike} ${month} ${r.kind}`,
      `${r.name.toLowerCase()} ${r.strike}`,
    ];
    qs.push({ text: forms[i % forms.length] as string });
  }
  qs.push({ text: 'NIFTY 24000 CE' }, { text: 'NIFTY DEC' }, { text: 'BANKNIFTY 59000 DEC PE' });
  // Short single terms.
  for (const t of [
    'SBI',
    'NIFTY',
    'BANKNIFTY',
    'GOLD',
    'CRUDE',
    'USD',
    'N',
    'E',
    'CE',
    'PE',
    'LT',
    'M&M',
    '50',
    '26',
    'DEC',
    'FUT',
    'INFY',
    'TCS',
    'SENSEX',
    'SILVER',
    'ZINC',
    'INR',
    'A',
    'IT',
    'LTD',
    '100',
    '5',
    'X',
    'Q',
    'ZZZZ',
  ]) {
    qs.push({ text: t });
  }
  // With an exchange filter (one with no rows widens to every exchange).
  const exchanges = ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS', 'NSE_INDEX', 'BSE_INDEX', 'NCDEX'];
  const base = qs.slice(0, qs.length);
  for (let i = 0; i < 37; i++) {
    const q = base[(i * 37) % base.length] as Query;
    qs.push({ text: q.text, exchange: exchanges[i % exchanges.length] as string });
  }
  return qs;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** All samples in µs, ascending, plus each query's median and every sample by query. */
function timeAll(
  qs: readonly Query[],
  reps: number,
  run: (q: Query) => unknown,
): { all: number[]; perQuery: number[]; byQuery: number[][] } {
  const byQuery = qs.map(() => [] as number[]);
  for (let rep = 0; rep < reps; rep++) {
    qs.forEach((q, i) => {
      const t0 = process.hrtime.bigint();
      run(q);
      byQuery[i]?.push(Number(process.hrtime.bigint() - t0) / 1000);
    });
  }
  const perQuery = byQuery.map((s) =>
    percentile(
      [...s].sort((a, b) => a - b),
      50,
    ),
  );
  return { all: byQuery.flat().sort((a, b) => a - b), perQuery, byQuery };
}

const fmt = (us: number) => (us >= 100 ? us.toFixed(0) : us.toFixed(1));

export async function run(): Promise<void> {
  const today = istToday();
  let t0 = performance.now();
  const master = buildMaster({ seed: 42, today });
  console.log(
    `master build: ${(performance.now() - t0).toFixed(0)} ms, ${master.all.length} rows (today ${today})`,
  );

  const index = createSearchIndex(master);
  t0 = performance.now();
  index.search('warm');
  console.log(`search index build (first search): ${(performance.now() - t0).toFixed(0)} ms`);
  const qs = querySet(master.all);
  // Index first (one untimed pass to warm the JIT), before the linear scan's garbage exists.
  for (const q of qs) index.search(q.text, q.exchange);
  const timedFast = timeAll(qs, INDEX_REPS, (q) => index.search(q.text, q.exchange));

  t0 = performance.now();
  linearSearch(master, 'warm');
  console.log(`linear table build (first search): ${(performance.now() - t0).toFixed(0)} ms`);
  const timedSlow = timeAll(qs, LINEAR_REPS, (q) => linearSearch(master, q.text, q.exchange));

  let mismatches = 0;
  for (const q of qs) {
    const a = index.search(q.text, q.exchange).map((r) => r.id);
    const b = linearSearch(master, q.text, q.exchange).map((r) => r.id);
    if (a.length !== b.length || a.some((id, i) => id !== b[i])) mismatches++;
  }
  console.log(
    `queries: ${qs.length} (index x${INDEX_REPS}, linear x${LINEAR_REPS}); result mismatches: ${mismatches}`,
  );
  const fast = timedFast.all;
  const slow = timedSlow.all;
  const p99Fast = percentile(fast, 99);
  const p99Slow = percentile(slow, 99);
  console.log(
    `search index: median ${fmt(percentile(fast, 50))} µs, p99 ${fmt(p99Fast)} µs, max ${fmt(fast[fast.length - 1] ?? 0)} µs`,
  );
  console.log(
    `linear scan:  median ${fmt(percentile(slow, 50))} µs, p99 ${fmt(p99Slow)} µs, max ${fmt(slow[slow.length - 1] ?? 0)} µs`,
  );
  const worst = qs
    .map((q, i) => ({ q, us: timedFast.perQuery[i] ?? 0 }))
    .sort((a, b) => b.us - a.us)
    .slice(0, 3)
    .map((w) => `'${w.q.text}'${w.q.exchange ? ` @${w.q.exchange}` : ''} ${fmt(w.us)} µs`);
  console.log(`slowest index queries (median): ${worst.join(', ')}`);
  // The samples at and above p99, by query: one query again and again is an algorithmic tail; many
  // queries once each are pauses (garbage collection, the machine's other work).
  const tail = new Map<string, number>();
  timedFast.byQuery.forEach((samples, i) => {
    const q = qs[i] as Query;
    const n = samples.filter((us) => us >= p99Fast).length;
    const name = `'${q.text}'${q.exchange ? ` @${q.exchange}` : ''}`;
    if (n > 0) tail.set(name, (tail.get(name) ?? 0) + n);
  });
  const tailList = [...tail].sort((a, b) => b[1] - a[1]);
  console.log(
    `index samples >= p99: ${tailList.reduce((a, [, n]) => a + n, 0)} from ${tailList.length} queries (most: ${tailList
      .slice(0, 3)
      .map(([name, n]) => `${name} x${n}`)
      .join(', ')})`,
  );
  console.log(
    `p99 speed-up: ${(p99Slow / p99Fast).toFixed(1)}x (median ${(percentile(slow, 50) / percentile(fast, 50)).toFixed(1)}x)`,
  );
}
