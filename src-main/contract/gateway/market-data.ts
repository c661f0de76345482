// Market-data and reference operations: depth, quotes, search, symbol, expiry, ticker, history, intervals.
import { z } from 'zod';
import {
  ApiKey,
  EXCHANGES,
  FNO_EXCHANGES,
  SuccessStatus,
  num,
  oneOf,
  str,
  symbolText,
} from './primitives.js';

// ---- requests ----
const symbolAndExchange = {
  apikey: ApiKey,
  symbol: symbolText(),
  exchange: oneOf('exchange', EXCHANGES),
};
export const DepthRequest = z.object(symbolAndExchange);
export type DepthRequest = z.infer<typeof DepthRequest>;
export const QuotesRequest = DepthRequest;
export const SymbolRequest = DepthRequest;

export const MultiQuotesRequest = z.object({
  apikey: ApiKey,
  symbols: z
    .array(z.object({ symbol: symbolText(), exchange: oneOf('exchange', EXCHANGES) }), {
      error: 'symbols must be a list of {symbol, exchange}',
    })
    .min(1, 'symbols must hold at least one entry')
    .max(500, 'symbols may hold at most 500 entries'),
});
export type MultiQuotesRequest = z.infer<typeof MultiQuotesRequest>;

export const SearchRequest = z.object({
  apikey: ApiKey,
  query: z
    .string({
      error: (iss) =>
        iss.input === undefined
          ? 'Query parameter is required and cannot be empty'
          : 'query must be a string',
    })
    .trim()
    .min(1, 'Query parameter is required and cannot be empty')
    .max(256, 'query must be at most 256 characters'),
  exchange: oneOf('exchange', EXCHANGES).optional(),
});
export type SearchRequest = z.infer<typeof SearchRequest>;

/** Spec §4.17 and the exact messages of §7.3. */
function required(message: string, max = 64) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, message.replace(/ is required.*/, ` must be at most ${max} characters`));
}
export const ExpiryRequest = z.object({
  apikey: ApiKey,
  symbol: symbolText('Symbol parameter', 64, 'Symbol parameter is required and cannot be empty'),
  exchange: required('Exchange parameter is required and cannot be empty').refine(
    (e) => (FNO_EXCHANGES as readonly string[]).includes(e),
    `Exchange must be one of: ${FNO_EXCHANGES.join(', ')}`,
  ),
  instrumenttype: required('Instrumenttype parameter is required and cannot be empty').refine(
    (t) => t === 'futures' || t === 'options',
    "Instrumenttype must be either 'futures' or 'options'",
  ),
});
export type ExpiryRequest = z.infer<typeof ExpiryRequest>;

export const TICKER_INTERVALS = [
  '1s',
  '5s',
  '10s',
  '15s',
  '30s',
  '45s',
  '1m',
  '2m',
  '3m',
  '5m',
  '10m',
  '15m',
  '20m',
  '30m',
  '1h',
  '2h',
  '3h',
  '4h',
  'D',
  'W',
  'M',
] as const;
export type TickerInterval = (typeof TICKER_INTERVALS)[number];

/**
 * A ticker/history date bound: `YYYY-MM-DD` or a millisecond epoch timestamp (spec §4.19). Ten digits
 * or fewer would be a millisecond time in early 1970, so such a value is refused as the seconds it
 * almost surely is, rather than answered with no bars.
 */
export const DateBound = z
  .string()
  .regex(
    /^(\d{4}-\d{2}-\d{2}|\d{11,14})$/,
    'must be a date (YYYY-MM-DD) or a timestamp in milliseconds (13 digits; 10 would be seconds)',
  );

export const TickerQuery = z.object({
  interval: oneOf('interval', TICKER_INTERVALS).default('D'),
  from: DateBound.optional(),
  to: DateBound.optional(),
  adjusted: z
    .enum(['true', 'false', '1', '0'], { error: 'adjusted must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .default(true),
  sort: z.enum(['asc', 'desc'], { error: 'sort must be asc or desc' }).default('asc'),
  format: z.enum(['json', 'txt'], { error: 'format must be json or txt' }).default('json'),
  apikey: z
    .string({ error: 'apikey must be given once, as a string' })
    .max(256, 'apikey must be at most 256 characters')
    .optional(),
});
export type TickerQuery = z.infer<typeof TickerQuery>;

export const HistoryRequest = z.object({
  ...symbolAndExchange,
  interval: oneOf('interval', TICKER_INTERVALS),
  start_date: DateBound,
  end_date: DateBound,
});
export type HistoryRequest = z.infer<typeof HistoryRequest>;

// ---- responses ----
export const DepthLevel = z.object({ price: num, quantity: num });
export const DepthData = z.looseObject({
  asks: z.array(DepthLevel),
  bids: z.array(DepthLevel),
  totalbuyqty: num,
  totalsellqty: num,
  high: num,
  low: num,
  ltp: num,
  ltq: num,
  open: num,
  prev_close: num,
  volume: num,
  oi: num,
});
export type DepthData = z.infer<typeof DepthData>;
export const DepthResponse = z.object({ status: SuccessStatus, data: DepthData });
export type DepthResponse = z.infer<typeof DepthResponse>;

export const QuoteData = z.looseObject({
  ask: num,
  /** Sizes at the best prices: the live sandbox adds them; other gateways may not. */
  ask_qty: num.optional(),
  bid: num,
  bid_qty: num.optional(),
  high: num,
  low: num,
  ltp: num,
  oi: num.optional(),
  open: num,
  prev_close: num,
  volume: num,
});
export type QuoteData = z.infer<typeof QuoteData>;
export const QuotesResponse = z.object({ status: SuccessStatus, data: QuoteData });
export type QuotesResponse = z.infer<typeof QuotesResponse>;

export const MultiQuoteResult = z.union([
  z.looseObject({ symbol: str, exchange: str, data: QuoteData }),
  z.looseObject({ symbol: str, exchange: str, error: str }),
]);
export const MultiQuotesResponse = z.object({ status: SuccessStatus, results: z.array(MultiQuoteResult) });
export type MultiQuotesResponse = z.infer<typeof MultiQuotesResponse>;

export const SymbolRecord = z.looseObject({
  symbol: str,
  brsymbol: str,
  name: str,
  exchange: str,
  brexchange: str,
  token: str,
  expiry: str,
  strike: num,
  lotsize: num,
  instrumenttype: str,
  tick_size: num,
  freeze_qty: num.optional(),
});
export type SymbolRecord = z.infer<typeof SymbolRecord>;
export const SearchResponse = z.object({ status: SuccessStatus, message: str, data: z.array(SymbolRecord) });
export type SearchResponse = z.infer<typeof SearchResponse>;
export const SymbolResponse = z.object({
  status: SuccessStatus,
  data: SymbolRecord.extend({ id: num.optional() }),
});
export type SymbolResponse = z.infer<typeof SymbolResponse>;

export const ExpiryResponse = z.object({ status: SuccessStatus, message: str, data: z.array(z.string()) });
export type ExpiryResponse = z.infer<typeof ExpiryResponse>;

const IST_OFFSET_S = 19_800;
/**
 * A bar timestamp, normalised to epoch seconds. The spec documents an integer epoch and a
 * `YYYY-MM-DD, HH:MM:SS` IST string; the real history docs show `YYYY-MM-DD HH:MM:SS+05:30`;
 * some brokers send milliseconds.
 */
export const BarTimestamp = z.union([z.number(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'number') return v > 1e11 ? Math.floor(v / 1000) : v;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ ,T]+(\d{2}):(\d{2})(?::(\d{2}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
    v.trim(),
  );
  if (!m) {
    if (/^\d+$/.test(v.trim())) {
      const n = Number(v.trim());
      return n > 1e11 ? Math.floor(n / 1000) : n;
    }
    ctx.addIssue({ code: 'custom', message: `unrecognised bar timestamp ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  const [, y, mo, d, h = '0', mi = '0', s = '0', tz] = m;
  let offset = IST_OFFSET_S;
  if (tz === 'Z') offset = 0;
  else if (tz) {
    const sign = tz.startsWith('-') ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    offset = sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2)) * 60);
  }
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000 - offset;
});

export const BarRecord = z.looseObject({
  timestamp: BarTimestamp,
  open: num,
  high: num,
  low: num,
  close: num,
  volume: num.transform((v) => Math.round(v)),
  oi: num.optional(),
});
export type BarRecord = z.infer<typeof BarRecord>;
export const TickerResponse = z.object({ status: SuccessStatus, data: z.array(BarRecord) });
export type TickerResponse = z.infer<typeof TickerResponse>;
export const HistoryResponse = TickerResponse;
export type HistoryResponse = TickerResponse;

export const IntervalsData = z.object({
  seconds: z.array(z.string()).default([]),
  minutes: z.array(z.string()).default([]),
  hours: z.array(z.string()).default([]),
  days: z.array(z.string()).default([]),
  weeks: z.array(z.string()).default([]),
  months: z.array(z.string()).default([]),
});
export const IntervalsResponse = z.object({ status: SuccessStatus, data: IntervalsData });
export type IntervalsResponse = z.infer<typeof IntervalsResponse>;

export const PingResponse = z.object({
  status: SuccessStatus,
  data: z.looseObject({ message: str, broker: str }),
});
export type PingResponse = z.infer<typeof PingResponse>;
