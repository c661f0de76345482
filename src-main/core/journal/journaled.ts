// Wraps one gateway order call in its journal entry: the intent is committed before the call (if the
// journal cannot write, the order is not sent) and the outcome after, with the measured duration. The
// intent's flush to disk runs while the order travels and the answer waits for it, so no order is
// acknowledged whose intent a power cut could still lose. The outcome is committed once the answer is
// on its way (recordOutcomeLater), and every read of the journal still sees it.
import { errorMessage } from '../../contract/index.js';
import type { GatewayResult } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import type { IntentInput, Journal, OutcomeInput } from './journal.js';

export async function journaled<T>(
  journal: Pick<Journal, 'recordIntent' | 'recordOutcomeLater' | 'durable'>,
  intent: IntentInput,
  call: () => Promise<GatewayResult<T>>,
  logger?: Logger,
): Promise<GatewayResult<T>> {
  // Throws before the call: an order that cannot be journalled is never sent.
  const { id } = journal.recordIntent(intent);
  // Never rejects: the order is on its way, and a failed flush is said in the log, not as its result.
  const onDisk = journal
    .durable()
    .catch((err: unknown) =>
      logger?.error('journal intent not flushed to disk', { id, reason: errorMessage(err) }),
    );
  const started = performance.now();
  const record = (outcome: OutcomeInput): void =>
    // The order has gone out; a journal failure now must not hide its result from the user.
    journal.recordOutcomeLater(id, outcome, (err) =>
      logger?.error('journal outcome not written', { id, reason: errorMessage(err) }),
    );
  let result: GatewayResult<T>;
  try {
    result = await call();
  } catch (err) {
    record({
      outcome: 'unknown',
      error: { kind: 'exception', message: errorMessage(err) },
      durationMs: performance.now() - started,
    });
    throw err;
  }
  const durationMs = performance.now() - started;
  if (result.ok) record({ outcome: 'ok', response: result.value, durationMs });
  else {
    const { kind, message, httpStatus } = result.error;
    record({
      outcome: kind === 'unknown_outcome' ? 'unknown' : 'error',
      error: { kind, message, ...(httpStatus !== undefined ? { httpStatus } : {}) },
      durationMs,
    });
  }
  await onDisk;
  return result;
}
