// Reference reads of the real gateway that are not in the spec: the instrument master download
// (GET /instruments, gateway-behaviour §8.6), the market calendar (/market/holidays,
// /market/timings, §10) and the analyzer switch (/analyzer/toggle, §10).
import { z } from 'zod';
import { SymbolRecord } from './market-data.js';
import { ApiKey, EXCHANGES, SuccessStatus, num, oneOf, requestCount, str } from './primitives.js';

// ---- requests ----
/** GET query: exchange optional (all exchanges), format json (default) or csv. */
export const InstrumentsQuery = z.object({
  apikey: z
    .string({ error: 'apikey must be given once, as a string' })
    .max(256, 'apikey must be at most 256 characters')
    .optional(),
  exchange: oneOf('exchange', EXCHANGES).optional(),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).default('json'),
});
export type InstrumentsQuery = z.infer<typeof InstrumentsQuery>;

export const MarketHolidaysRequest = z.object({
  apikey: ApiKey,
  /** Upstream accepts 2020-2050; the current year when left out. */
  year: requestCount('year')
    .refine((y) => y >= 2020 && y <= 2050, 'year must be between 2020 and 2050')
    .optional(),
});
export type MarketHolidaysRequest = z.infer<typeof MarketHolidaysRequest>;

export const MarketTimingsRequest = z.object({
  apikey: ApiKey,
  date: z
    .string({ error: (iss) => (iss.input === undefined ? 'date is required' : 'date must be a string') })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
    .refine((d) => d >= '2020-01-01' && d <= '2050-12-31', 'date must be between 2020-01-01 and 2050-12-31')
    // Refinements still run after a failed regex: guard the parse so a malformed date is only a 400.
    .refine((d) => {
      const t = Date.parse(`${d}T00:00:00Z`);
      return Number.isNaN(t) || new Date(t).toISOString().startsWith(d);
    }, 'date must be a real calendar date'),
});
export type MarketTimingsRequest = z.infer<typeof MarketTimingsRequest>;

export const AnalyzerToggleRequest = z.object({
  apikey: ApiKey,
  mode: z.boolean({
    error: (iss) => (iss.input === undefined ? 'mode is required' : 'mode must be true or false'),
  }),
});
export type AnalyzerToggleRequest = z.infer<typeof AnalyzerToggleRequest>;

// ---- responses ----
export const InstrumentsResponse = z.object({
  status: SuccessStatus,
  message: str.optional(),
  data: z.array(SymbolRecord),
});
export type InstrumentsResponse = z.infer<typeof InstrumentsResponse>;

/** A session in epoch milliseconds. */
export const ExchangeSession = z.looseObject({ exchange: str, start_time: num, end_time: num });
export type ExchangeSession = z.infer<typeof ExchangeSession>;

export const MarketHoliday = z.looseObject({
  /** YYYY-MM-DD */
  date: str,
  description: str,
  /** TRADING_HOLIDAY, SETTLEMENT_HOLIDAY or SPECIAL_SESSION. */
  holiday_type: str,
  closed_exchanges: z.array(str),
  open_exchanges: z.array(ExchangeSession),
});
export type MarketHoliday = z.infer<typeof MarketHoliday>;

export const MarketHolidaysResponse = z.looseObject({
  status: SuccessStatus,
  year: num.optional(),
  timezone: str.optional(),
  data: z.array(MarketHoliday),
});
export type MarketHolidaysResponse = z.infer<typeof MarketHolidaysResponse>;

/** Empty on a weekend or a full holiday. */
export const MarketTimingsResponse = z.looseObject({ status: SuccessStatus, data: z.array(ExchangeSession) });
export type MarketTimingsResponse = z.infer<typeof MarketTimingsResponse>;

export const AnalyzerToggleResponse = z.object({
  status: SuccessStatus,
  data: z.looseObject({ analyze_mode: z.boolean(), mode: str, message: str, total_logs: num.optional() }),
});
export type AnalyzerToggleResponse = z.infer<typeof AnalyzerToggleResponse>;
