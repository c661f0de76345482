// Building blocks shared by every gateway schema. Requests accept numbers as JSON numbers or numeric
// strings (spec §2.1); responses are parsed liberally (numbers may arrive as strings and the other way
// round, upstream issue #2066) and normalised to the spec's types.
import { z } from 'zod';

export const EXCHANGES = [
  'NSE',
  'NFO',
  'CDS',
  'BSE',
  'BFO',
  'BCD',
  'MCX',
  'NCDEX',
  'NCO',
  'NSE_INDEX',
  'BSE_INDEX',
  'MCX_INDEX',
] as const;
export const ORDER_EXCHANGES = ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS', 'BCD', 'NCDEX', 'NCO'] as const;
export const FNO_EXCHANGES = ['NFO', 'BFO', 'MCX', 'CDS'] as const;
export const ACTIONS = ['BUY', 'SELL'] as const;
export const PRODUCTS = ['MIS', 'CNC', 'NRML'] as const;
export const PRICE_TYPES = ['MARKET', 'LIMIT', 'SL', 'SL-M'] as const;

export const Exchange = z.enum(EXCHANGES);
export type Exchange = z.infer<typeof Exchange>;
export const OrderExchange = z.enum(ORDER_EXCHANGES);
export type OrderExchange = z.infer<typeof OrderExchange>;
export type Action = (typeof ACTIONS)[number];
export type Product = (typeof PRODUCTS)[number];
export type PriceType = (typeof PRICE_TYPES)[number];

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A required non-empty string field of bounded length; the message names the field. */
export function text(field: string, max = 128) {
  return z
    .string({
      error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`),
    })
    .trim()
    .min(1, `${field} cannot be empty`)
    .max(max, `${field} must be at most ${max} characters`);
}

/** True when `s` holds a C0 control character (NUL, tab, CR, LF, ESC, ...) or DEL. */
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * A trading symbol or an underlying's name: the one schema every request naming an instrument uses.
 * A control character is refused before trimming, so "SBIN\r\n" is an error, never SBIN.
 */
export function symbolText(field = 'symbol', max = 64, requiredMessage?: string) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined
          ? (requiredMessage ?? `${field} is required`)
          : (requiredMessage ?? `${field} must be a string`),
    })
    .refine(
      (s) => !hasControlCharacter(s),
      `${field} cannot contain control characters (such as NUL, CR or LF)`,
    )
    .trim()
    .min(1, requiredMessage ?? `${field} cannot be empty`)
    .max(max, `${field} must be at most ${max} characters`);
}

/** One of a fixed set; accepts any case for BUY/SELL-style words when `anyCase`. */
export function oneOf<const T extends readonly [string, ...string[]]>(
  field: string,
  values: T,
  anyCase = false,
) {
  const set = new Set<string>(values);
  return z
    .string({
      error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`),
    })
    .transform((s, ctx) => {
      const v = anyCase ? s.trim().toUpperCase() : s.trim();
      if (!set.has(v)) {
        ctx.addIssue({ code: 'custom', message: `${field} must be one of: ${values.join(', ')}` });
        return z.NEVER;
      }
      return v as T[number];
    });
}

/** A request number: a JSON number or a string holding one (spec §2.1). */
export function requestNumber(field: string) {
  return z
    .union([z.number(), z.string()], {
      error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a number`),
    })
    .transform((v, ctx) => {
      const s = typeof v === 'string' ? v.trim() : String(v);
      const n = typeof v === 'number' ? v : NUMERIC.test(s) ? Number(s) : Number.NaN;
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a number` });
        return z.NEVER;
      }
      return n;
    });
}

/** A whole, non-negative request number (quantities, sizes). */
export function requestCount(field: string, min = 0) {
  return requestNumber(field).superRefine((n, ctx) => {
    if (!Number.isInteger(n)) ctx.addIssue({ code: 'custom', message: `${field} must be a whole number` });
    else if (n < min)
      ctx.addIssue({
        code: 'custom',
        message: min === 1 ? `${field} must be a positive number` : `${field} must be at least ${min}`,
      });
  });
}

/** A non-negative request price. */
export function requestPrice(field: string) {
  return requestNumber(field).refine((n) => n >= 0, `${field} must be a non-negative number`);
}

/** Response number: tolerant of numeric strings and of empty/missing values (→ 0). */
export const num = z.preprocess((v) => {
  if (typeof v === 'string') {
    const s = v.trim().replace(/,/g, '');
    return s === '' ? 0 : NUMERIC.test(s) ? Number(s) : v;
  }
  return v ?? 0;
}, z.number());

/** Response string: tolerant of numbers (order ids sent as integers, upstream issue #688). */
export const str = z.preprocess((v) => (typeof v === 'number' ? String(v) : (v ?? '')), z.string());

/** A two-decimal money string (funds, position average price): accepts numbers and strings. */
export const money2 = z.preprocess(
  (v) => {
    if (typeof v === 'number') return v.toFixed(2);
    if (v === undefined || v === null || v === '') return '0.00';
    return v;
  },
  z.string().regex(NUMERIC, 'not a decimal number'),
);

export const SuccessStatus = z.literal('success');

/** The error body every failing call answers with (spec §7.1); `message` may be an object of field errors. */
export const ErrorBody = z.looseObject({
  status: z.literal('error'),
  message: z.union([z.string(), z.record(z.string(), z.unknown())]).transform((m) =>
    typeof m === 'string'
      ? m
      : Object.entries(m)
          .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : String(v)}`)
          .join('; '),
  ),
  code: z.string().optional(),
  error_code: z.string().optional(),
  retry_after: num.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ApiKey = text('apikey', 256);
export const ApiKeyRequest = z.object({ apikey: ApiKey });
export type ApiKeyRequest = z.infer<typeof ApiKeyRequest>;
