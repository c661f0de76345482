// What every IPC handler answers: a value or a typed error, never a thrown exception.
import { z } from 'zod';
import { DailyLimitName } from '../../contract/core/daily-limits.js';

/**
 * Error kinds across IPC: the gateway client's kinds (bad_input … unknown_outcome) plus the core's
 * own (invalid_input: refused before any request; risk / duplicate / unresolved_duplicate: pre-trade
 * checks; no_key: no API key stored for the profile; secret_store: the key store failed (a locked
 * keyring, an unwritable file): the message says what to check; not_found / conflict: profile
 * operations; internal: a bug).
 */
export const IPC_ERROR_KINDS = [
  'bad_input',
  'unauthorised',
  'forbidden',
  'not_offered',
  'rate_limited',
  'server',
  'network',
  'timeout',
  'bad_response',
  'unknown_outcome',
  'invalid_input',
  'risk',
  'duplicate',
  /**
   * Held back: the same order's earlier intent is unresolved (pending, an unknown outcome not settled,
   * or settled "placed after all" a moment ago); `confirmDuplicate` sends it deliberately.
   */
  'unresolved_duplicate',
  'no_key',
  'secret_store',
  /** A semi-auto gateway queued the order for approval in its Action Center: not placed yet. */
  'queued',
  'not_found',
  'conflict',
  /** A file could not be written (journal.exportCsv); the message says which and why. */
  'io',
  /**
   * OrderDesk's own data could not be written or read (the journal before an order: disk full,
   * read-only, damaged; the paper ledger): nothing was sent, the message says which file and why.
   */
  'storage',
  'internal',
] as const;
export const IpcErrorKind = z.enum(IPC_ERROR_KINDS);
export type IpcErrorKind = z.infer<typeof IpcErrorKind>;

export const IpcError = z.object({
  kind: IpcErrorKind,
  message: z.string(),
  httpStatus: z.number().int().optional(),
  /** Seconds before the gateway accepts this call again (rate_limited only). */
  retryAfter: z.number().optional(),
  /** Journal entry of the order action, when one was written (risk refusals and unknown outcomes). */
  journalId: z.string().optional(),
  /** risk: a soft daily limit was reached and the order is not an exit (its settings field). */
  limit: DailyLimitName.optional(),
  /** invalid_input: each refused field by its dotted path (`risk.maxValuePerOrder`), for forms. */
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type IpcError = z.infer<typeof IpcError>;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** The result envelope for a value schema, for transports that validate what they forward. */
export function ipcResult<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: IpcError }),
  ]);
}
