// The plain-way symbol search: scan every row, collect matches, sort them all, keep 500. It is the
// reference the index must agree with and the baseline the benchmark measures against.
import type { Instrument, InstrumentMaster } from './instrument.js';
import { fieldsOf, parseQuery, scoreRow, SEARCH_LIMIT, type SearchFields } from './search-query.js';

interface LinearRow extends SearchFields {
  inst: Instrument;
}

interface LinearTable {
  all: LinearRow[];
  byExchange: Map<string, LinearRow[]>;
}

// Upper-cased fields are prepared once per master so the baseline measures the scan, not toUpperCase.
const tables = new WeakMap<readonly Instrument[], LinearTable>();

function tableFor(master: InstrumentMaster): LinearTable {
  let t = tables.get(master.all);
  if (!t) {
    const all = master.all.map((inst) => ({ ...fieldsOf(inst), inst }));
    const byExchange = new Map<string, LinearRow[]>();
    for (const r of all) {
      let list = byExchange.get(r.inst.exchange);
      if (!list) byExchange.set(r.inst.exchange, (list = []));
      list.push(r);
    }
    t = { all, byExchange };
    tables.set(master.all, t);
  }
  return t;
}

export function linearSearch(master: InstrumentMaster, query: string, exchange?: string): Instrument[] {
  const q = parseQuery(query);
  if (q.terms.length === 0) return [];
  const table = tableFor(master);
  // An exchange with no rows silently widens the search to every exchange, as the service does.
  const rows = (exchange ? table.byExchange.get(exchange) : undefined) ?? table.all;
  const hits: { score: number; row: LinearRow }[] = [];
  for (const row of rows) {
    const score = scoreRow(row, q);
    if (score >= 0) hits.push({ score, row });
  }
  hits.sort(
    (a, b) =>
      a.score - b.score ||
      a.row.symbolU.length - b.row.symbolU.length ||
      (a.row.symbolU < b.row.symbolU ? -1 : a.row.symbolU > b.row.symbolU ? 1 : 0) ||
      a.row.inst.id - b.row.inst.id,
  );
  return hits.slice(0, SEARCH_LIMIT).map((h) => h.row.inst);
}
