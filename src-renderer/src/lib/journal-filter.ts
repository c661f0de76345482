// The Journal pane's search as data: the form's words become a journal query (symbol, strategy,
// order id, one IST calendar day), each bad field refused with its reason; and one entry read as a
// trader reads an order line (side, instrument, quantity, price, outcome).
import type { JournalEntry, JournalQuery } from '@contract';

export interface JournalSearchForm {
  symbol: string;
  strategy: string;
  orderId: string;
  /** `dd-mm-yyyy` (an IST calendar day) or empty for every day. */
  day: string;
}

export type JournalSearchField = keyof JournalSearchForm;
export type JournalSearchResult =
  { ok: true; query: JournalQuery } | { ok: false; field: JournalSearchField; message: string };

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;
const MAX_TEXT = 64;

/** The IST calendar day of an instant, `dd-mm-yyyy` (as the desk writes dates, not the browser's locale). */
export function istDay(epochMs: number): string {
  const [y, m, d] = new Date(epochMs + IST_OFFSET_MS).toISOString().slice(0, 10).split('-');
  return `${d}-${m}-${y}`;
}

/** `dd-mm-yyyy` (one-digit day and month, and / or . between them, taken too). */
const DAY_TEXT = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/;

/**
 * The instants of one IST day given as `dd-mm-yyyy`: from its 00:00 IST (inclusive) to the next
 * day's (exclusive); undefined when the text is no such day.
 */
export function istDayRange(day: string): { from: number; to: number } | undefined {
  const m = DAY_TEXT.exec(day.trim());
  if (!m) return undefined;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = Date.UTC(y, mo - 1, d);
  // Date.UTC rolls 30-02-2026 over to March: such a day does not exist.
  if (new Date(utc).getUTCDate() !== d || new Date(utc).getUTCMonth() !== mo - 1) return undefined;
  const from = utc - IST_OFFSET_MS;
  return from < 0 ? undefined : { from, to: from + DAY_MS };
}

/** Why a date the trader typed is no day, in words that say how to write one. */
export function dayProblem(day: string): string {
  return DAY_TEXT.test(day.trim())
    ? `Date: ${day.trim()} is not a calendar day (dd-mm-yyyy, IST)`
    : `Date: write the day as dd-mm-yyyy (IST), e.g. 23-11-2026, not "${day.trim()}"`;
}

function text(
  form: JournalSearchForm,
  field: 'symbol' | 'strategy' | 'orderId',
  label: string,
): string | { field: JournalSearchField; message: string } {
  const value = form[field].trim();
  if (value.length > MAX_TEXT) return { field, message: `${label}: at most ${MAX_TEXT} characters` };
  return value;
}

/** The query a search form asks for, newest first; the first bad field says why. */
export function journalQueryOf(form: JournalSearchForm, limit?: number): JournalSearchResult {
  const query: JournalQuery = { order: 'desc', ...(limit !== undefined ? { limit } : {}) };
  const symbol = text(form, 'symbol', 'Symbol');
  if (typeof symbol !== 'string') return { ok: false, ...symbol };
  const strategy = text(form, 'strategy', 'Strategy');
  if (typeof strategy !== 'string') return { ok: false, ...strategy };
  const orderId = text(form, 'orderId', 'Order ID');
  if (typeof orderId !== 'string') return { ok: false, ...orderId };
  if (symbol) query.symbol = symbol.toUpperCase();
  if (strategy) query.strategy = strategy;
  if (orderId) query.orderId = orderId;
  const day = form.day.trim();
  if (day) {
    const range = istDayRange(day);
    if (!range) return { ok: false, field: 'day', message: dayProblem(day) };
    query.from = range.from;
    query.to = range.to;
  }
  return { ok: true, query };
}

/** The export takes the same filters, oldest first, every row (no paging). */
export function journalExportOf(query: JournalQuery): Omit<JournalQuery, 'limit' | 'offset' | 'order'> & {
  order: 'asc';
} {
  const { limit: _l, offset: _o, order: _d, ...filters } = query;
  return { ...filters, order: 'asc' };
}

/** What one entry did, in the desk's words. */
export interface JournalLine {
  /** `Place`, `Modify`, `Cancel all`, … */
  action: string;
  side?: 'BUY' | 'SELL';
  /** The symbol, or `3 legs: SBIN, INFY…` for a basket. */
  instrument: string;
  exchange?: string;
  quantity?: number;
  /** The limit price, or the price type when none (MARKET). */
  price?: string;
  product?: string;
  strategy?: string;
  /** A smart order's target position (its quantity is what the gateway placed, when known). */
  target?: number;
}

const SMART = new Set(['placesmartorder', 'smartorder']);

/** A smart order's quantity is the order the gateway placed, not the one asked for. */
function smartQuantity(
  entry: JournalEntry,
  line: JournalLine,
  placedOf: ((orderid: string) => number | undefined) | undefined,
): void {
  const r = obj(entry.request);
  const target = num(r.position_size);
  delete line.quantity;
  if (target !== undefined) line.target = target;
  const orderid = str(obj(entry.response).orderid);
  const placed = orderid !== undefined ? placedOf?.(orderid) : undefined;
  if (placed !== undefined) line.quantity = placed;
  // Answered without an order ("Positions Already Matched"): nothing was placed.
  else if (entry.outcome === 'ok' && orderid === undefined) line.quantity = 0;
}

const ACTIONS: Readonly<Record<string, string>> = {
  placeorder: 'Place',
  placesmartorder: 'Smart',
  smartorder: 'Smart',
  splitorder: 'Split',
  basketorder: 'Basket',
  modifyorder: 'Modify',
  cancelorder: 'Cancel',
  cancelallorder: 'Cancel all',
  closeposition: 'Close all',
  placegttorder: 'GTT place',
  modifygttorder: 'GTT modify',
  cancelgttorder: 'GTT cancel',
};

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/**
 * `placedOf`: the quantity of an order as the order book has it (today's), for a smart order's line;
 * without it (another day) a smart order shows its target position, never the quantity asked for.
 */
export function journalLine(
  entry: JournalEntry,
  placedOf?: (orderid: string) => number | undefined,
): JournalLine {
  const r = obj(entry.request);
  const action = ACTIONS[entry.operation] ?? entry.operation;
  const strategy = str(r.strategy);
  if (Array.isArray(r.orders)) {
    const symbols = r.orders.map((o) => str(obj(o).symbol)).filter((s): s is string => s !== undefined);
    const shown = symbols.slice(0, 2).join(', ') + (symbols.length > 2 ? '…' : '');
    return {
      action,
      instrument: `${r.orders.length} ${r.orders.length === 1 ? 'leg' : 'legs'}${shown ? `: ${shown}` : ''}`,
      ...(strategy ? { strategy } : {}),
    };
  }
  const sideText = str(r.action)?.toUpperCase();
  const side = sideText === 'BUY' || sideText === 'SELL' ? sideText : undefined;
  const priceType = str(r.pricetype)?.toUpperCase();
  const price = num(r.price);
  const line: JournalLine = {
    action,
    instrument: str(r.symbol) ?? (str(r.orderid) ? `order ${str(r.orderid)}` : '—'),
  };
  if (side) line.side = side;
  const exchange = str(r.exchange);
  if (exchange) line.exchange = exchange;
  const quantity = num(r.quantity) ?? num(r.position_size);
  if (quantity !== undefined) line.quantity = quantity;
  if (price !== undefined && price !== 0) line.price = String(price);
  else if (priceType) line.price = priceType;
  const product = str(r.product);
  if (product) line.product = product;
  if (strategy) line.strategy = strategy;
  if (SMART.has(entry.operation)) smartQuantity(entry, line, placedOf);
  return line;
}

/** The outcome in words: what a trader needs to know at a glance. */
export function outcomeText(entry: JournalEntry): string {
  switch (entry.outcome) {
    case 'ok':
      return 'OK';
    case 'pending':
      return 'Sending';
    case 'unknown':
      return entry.resolution
        ? entry.resolution.found
          ? 'Unknown → found'
          : 'Unknown → not placed'
        : 'Unknown';
    case 'error':
      return entry.error ? `Error: ${entry.error.kind}` : 'Error';
  }
}

/** JSON for the detail view, two-space indented; `undefined` reads as nothing recorded. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '(nothing recorded)';
  return JSON.stringify(value, null, 2);
}
