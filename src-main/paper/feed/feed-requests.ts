// Reading the feed's client messages as upstream's server does (websocket_proxy/server.py): the mode
// as 1/2/3 or LTP/Quote/Depth in any case (the contract's WsMode), the symbols as `symbols`, the
// docs' `instruments`, or one `symbol` + `exchange`, and entries without both skipped.
import { WsMode } from '../../contract/index.js';
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import { normaliseSymbol } from '../instruments/symbols.js';
import type { FeedMode } from './feed-payloads.js';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `mode` the client wrote as a float (`2.0`): JSON.parse reads it as the integer 2. */
export class FloatMode {
  constructor(readonly value: number) {}
}

/**
 * The message with a top-level `mode` written as a float (`2.0`, `2e0`) replaced by a FloatMode, so
 * it is refused as the live server refuses it. JSON.parse cannot tell 2.0 from 2; the text can.
 */
export function floatModeMarked(m: Json, text: string): Json {
  if (typeof m.mode !== 'number' || !Number.isInteger(m.mode)) return m;
  const written = /"mode"\s*:\s*(-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)/.exec(text)?.[1] ?? '';
  return /[.eE]/.test(written) ? { ...m, mode: new FloatMode(m.mode) } : m;
}

/** Python's name for a JSON value's type, as upstream's mode error says it. */
function pythonType(v: unknown): string {
  if (v instanceof FloatMode || typeof v === 'number') return 'float';
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'list' : 'dict';
}

/** The mode, or the INVALID_MODE message (upstream's mode_utils.normalize_mode wording). */
export function modeOf(raw: unknown): FeedMode | string {
  if (typeof raw === 'number' && Number.isInteger(raw)) {
    return [1, 2, 3].includes(raw)
      ? (raw as FeedMode)
      : `Invalid mode ${raw}; expected 1 (LTP), 2 (Quote), or 3 (Depth)`;
  }
  if (typeof raw === 'string') {
    const r = WsMode.safeParse(raw);
    return r.success
      ? (r.data as FeedMode)
      : `Invalid mode '${raw}'; expected 'LTP', 'Quote', or 'Depth' (case-insensitive)`;
  }
  return `Mode must be int or str, got ${pythonType(raw)}`;
}

/** Depth levels a client may ask for (the live server accepts 5, 20 and 50; 30 is the contract's). */
export const DEPTH_LEVELS = [5, 20, 30, 50] as const;
/** Levels the paper feed serves, whatever was asked: the simulator's book has five a side. */
export const DEPTH_SERVED = 5;

/** The depth asked for (`depth`, or the legacy `depth_level`; default 5), or undefined when not allowed. */
export function depthOf(m: Json): number | undefined {
  const d = m.depth ?? m.depth_level ?? 5;
  return (DEPTH_LEVELS as readonly unknown[]).includes(d) ? (d as number) : undefined;
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
