// Reading the feed's client messages as upstream's server does (websocket_proxy/server.py): the mode
// as 1/2/3 or LTP/Quote/Depth in any case (the contract's WsMode), the symbols as `symbols`, the
// docs' `instruments`, or one `symbol` + `exchange`, and entries without both skipped.
import { WsMode } from '../../contract/index.js';
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import { normaliseSymbol } from '../instruments/symbols.js';
import type { FeedMode } from './feed-payloads.js';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The mode, or the INVALID_MODE message. */
export function modeOf(raw: unknown): FeedMode | string {
  const r = WsMode.safeParse(raw);
  if (!r.success || ![1, 2, 3].includes(r.data)) {
    return `Invalid mode: ${JSON.stringify(raw)}. Use 1, 2, 3, LTP, Quote or Depth`;
  }
  return r.data as FeedMode;
}

export function symbolsOf(m: Json): unknown[] {
  const list = Array.isArray(m.symbols) ? m.symbols : Array.isArray(m.instruments) ? m.instruments : [];
  if (list.length > 0) return list;
  return typeof m.symbol === 'string' && typeof m.exchange === 'string'
    ? [{ symbol: m.symbol, exchange: m.exchange }]
    : [];
}

/** One entry's instrument (undefined `inst`: unknown here); undefined without symbol and exchange. */
export function instrumentOf(
  master: InstrumentMaster,
  item: unknown,
): { inst?: Instrument; symbol: string; exchange: string } | undefined {
  if (!isObject(item) || typeof item.symbol !== 'string' || typeof item.exchange !== 'string')
    return undefined;
  const symbol = normaliseSymbol(item.symbol);
  const exchange = item.exchange.trim().toUpperCase();
  return { inst: master.get(exchange, symbol), symbol, exchange };
}

/** Echoes the request's `request_id` (upstream issue #1376). */
export const withRequestId = (m: Json, body: Json): Json =>
  m.request_id !== undefined ? { ...body, request_id: m.request_id } : body;
