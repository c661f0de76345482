// Answers read without zod where they are already in the exact form the schema would give back. A
// search answers up to 500 contracts, a day of 1-minute bars is 375 rows; zod's walk of them (a
// preprocess per field) took 5–7 ms of a chain's load and most of the core's part of a chart's. Each check here passes only rows whose every field already has the type the schema
// ends with (text as text, numbers as finite numbers, nothing missing but the optional ones): zod
// would change nothing in them. Anything else (a numeric string, a null, a missing field) returns
// undefined and the caller reads the answer through the schema as before.
import type { SearchResponse, TickerResponse } from '../contract/index.js';

/** SymbolRecord's text fields (`str`): a number or a missing one would need the schema's rewriting. */
const SYMBOL_TEXT = [
  'symbol',
  'brsymbol',
  'name',
  'exchange',
  'brexchange',
  'token',
  'expiry',
  'instrumenttype',
] as const;
/** SymbolRecord's required number fields (`num`). */
const SYMBOL_NUMBERS = ['strike', 'lotsize', 'tick_size'] as const;

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function symbolRecordAsIs(row: unknown): boolean {
  if (!isPlainRecord(row)) return false;
  for (const k of SYMBOL_TEXT) if (typeof row[k] !== 'string') return false;
  for (const k of SYMBOL_NUMBERS) if (!isFiniteNumber(row[k])) return false;
  return !('freeze_qty' in row) || isFiniteNumber(row.freeze_qty);
}

/**
 * The search answer as SearchResponse would give it, when every row is already in that form; else
 * undefined (read it with the schema). The answer's own fields past status, message and data are
 * dropped, as the schema drops them; a row's extra fields stay, as the schema keeps them.
 */
export function searchAnswerAsIs(json: unknown): SearchResponse | undefined {
  if (!isPlainRecord(json)) return undefined;
  const { status, message, data } = json;
  if (status !== 'success' || typeof message !== 'string' || !Array.isArray(data)) return undefined;
  for (const row of data) if (!symbolRecordAsIs(row)) return undefined;
  return { status, message, data: data as SearchResponse['data'] };
}

/** BarRecord's price fields (`num`). */
const BAR_PRICES = ['open', 'high', 'low', 'close'] as const;

/**
 * A bar zod would return unchanged: epoch seconds (BarTimestamp turns milliseconds and date texts
 * into these), finite prices, a whole volume (the schema rounds it), an open interest if any.
 */
function barAsIs(bar: unknown): boolean {
  if (!isPlainRecord(bar)) return false;
  const t = bar.timestamp;
  if (!isFiniteNumber(t) || t > 1e11) return false;
  for (const k of BAR_PRICES) if (!isFiniteNumber(bar[k])) return false;
  if (!isFiniteNumber(bar.volume) || !Number.isInteger(bar.volume)) return false;
  return !('oi' in bar) || isFiniteNumber(bar.oi);
}

/** The ticker's (or history's) answer as TickerResponse would give it, when every bar is already in that form. */
export function tickerAnswerAsIs(json: unknown): TickerResponse | undefined {
  if (!isPlainRecord(json)) return undefined;
  const { status, data } = json;
  if (status !== 'success' || !Array.isArray(data)) return undefined;
  for (const bar of data) if (!barAsIs(bar)) return undefined;
  return { status, data: data as TickerResponse['data'] };
}
