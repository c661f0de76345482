// The order journal: one entry per order action, its intent written before the gateway call and its
// outcome after. Requests are stored without the API key.
import { z } from 'zod';
import { ProfileId } from './settings.js';

/** ok: the gateway answered success; error: it answered an error; unknown: no answer (timeout). */
export const JOURNAL_OUTCOMES = ['pending', 'ok', 'error', 'unknown'] as const;
export const JournalOutcome = z.enum(JOURNAL_OUTCOMES);
export type JournalOutcome = z.infer<typeof JournalOutcome>;

export const JournalError = z.object({
  kind: z.string().min(1).max(64),
  message: z.string().max(4000),
  httpStatus: z.number().int().optional(),
});
export type JournalError = z.infer<typeof JournalError>;

/** How an unknown outcome was settled from the order book (never by sending again). */
export const JournalResolution = z.object({
  /** Epoch ms when the order book told. */
  time: z.number(),
  /** placeorder: the order exists; modify: the change shows; cancel: the order is cancelled. */
  found: z.boolean(),
  orderid: z.string().optional(),
  message: z.string(),
});
export type JournalResolution = z.infer<typeof JournalResolution>;

export const JournalEntry = z.object({
  id: z.string(),
  /** Epoch ms when the intent was written (just before the call). */
  time: z.number(),
  profileId: ProfileId,
  operation: z.string(),
  /** The request as sent, without the API key. */
  request: z.unknown(),
  /** Every order id named by the request or the response. */
  orderIds: z.array(z.string()),
  outcome: JournalOutcome,
  finishedAt: z.number().nullable(),
  durationMs: z.number().nullable(),
  response: z.unknown().optional(),
  error: JournalError.optional(),
  /** Only for an unknown outcome, once settled. */
  resolution: JournalResolution.optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

export const JournalQuery = z.strictObject({
  /** Inclusive, epoch ms. */
  from: z.number().int().nonnegative().optional(),
  /** Exclusive, epoch ms. */
  to: z.number().int().nonnegative().optional(),
  profileId: ProfileId.optional(),
  operation: z.string().min(1).max(64).optional(),
  orderId: z.string().min(1).max(64).optional(),
  /** Entries whose request names an instrument starting with this (any basket leg), any case. */
  symbol: z.string().trim().min(1).max(64).optional(),
  /** Entries whose request carries this strategy tag, any case. */
  strategy: z.string().trim().min(1).max(64).optional(),
  outcome: JournalOutcome.optional(),
  /** Newest first by default. */
  order: z.enum(['asc', 'desc']).default('desc'),
  limit: z.number().int().min(1).max(100_000).default(1000),
  offset: z.number().int().nonnegative().default(0),
});
export type JournalQuery = z.input<typeof JournalQuery>;
