// The paper gateway's master contract: built deterministically from (seed, today) so every expiry is
// on or after `today`, memoised because the gateway (and so every test) builds it on start-up.
import { parseIso } from './calendar.js';
import { buildRows } from './build-rows.js';
import type { Instrument, InstrumentMaster, Underlying } from './instrument.js';

export interface BuildMasterOptions {
  seed: number;
  /** IST calendar date, YYYY-MM-DD. */
  today: string;
}

/** The shared, immutable part of a master; one per (seed, today). */
interface MasterCore {
  all: readonly Instrument[];
  underlyings: readonly Underlying[];
  bySymbol: Map<string, Map<string, Instrument>>;
  byUnderlying: Map<string, readonly Instrument[]>;
}

const MEMO_LIMIT = 4;
const memo = new Map<string, MasterCore>();

/**
 * Instruments are frozen and shared between calls with the same (seed, today); each call gets its own
 * copy of the underlyings map, so a caller that moves an underlying's reference price (the market's
 * test hooks) cannot leak that into another master.
 */
export function buildMaster(opts: BuildMasterOptions): InstrumentMaster {
  parseIso(opts.today);
  if (!Number.isFinite(opts.seed)) throw new Error(`Invalid seed ${opts.seed}`);
  const key = `${opts.seed}|${opts.today}`;
  let core = memo.get(key);
  if (core) {
    // Refresh recency for the small LRU.
    memo.delete(key);
  } else {
    core = buildCore(opts.seed, opts.today);
    if (memo.size >= MEMO_LIMIT) {
      const oldest = memo.keys().next().value;
      if (oldest !== undefined) memo.delete(oldest);
    }
  }
  memo.set(key, core);
  return wrap(core);
}

function buildCore(seed: number, today: string): MasterCore {
  const b = buildRows(seed, today);
  const bySymbol = new Map<string, Map<string, Instrument>>();
  const byUnderlying = new Map<string, Instrument[]>();
  for (const row of b.rows) {
    Object.freeze(row);
    let ex = bySymbol.get(row.exchange);
    if (!ex) bySymbol.set(row.exchange, (ex = new Map()));
    if (ex.has(row.symbol)) throw new Error(`Duplicate symbol ${row.exchange}:${row.symbol}`);
    ex.set(row.symbol, row);
    if (row.kind === 'FUT' || row.kind === 'CE' || row.kind === 'PE') {
      const k = derivativeKey(row.exchange, row.name);
      let list = byUnderlying.get(k);
      if (!list) byUnderlying.set(k, (list = []));
      list.push(row);
    }
  }
  for (const list of byUnderlying.values()) Object.freeze(list);
  return {
    all: Object.freeze(b.rows),
    underlyings: [...b.underlyings.values()].map((u) => Object.freeze(u)),
    bySymbol,
    byUnderlying,
  };
}

function derivativeKey(exchange: string, underlyingName: string): string {
  return `${exchange}|${underlyingName}`;
}

const EMPTY: readonly Instrument[] = Object.freeze([]);

function wrap(core: MasterCore): InstrumentMaster {
  const underlyings = new Map<string, Underlying>(core.underlyings.map((u) => [u.key, { ...u }]));
  return {
    all: core.all,
    underlyings,
    get: (exchange, symbol) => core.bySymbol.get(exchange)?.get(symbol),
    derivatives: (exchange, underlyingName) =>
      core.byUnderlying.get(derivativeKey(exchange, underlyingName)) ?? EMPTY,
  };
}
