// Wraps one gateway order call in its journal entry: the intent is committed before the call (if the
// journal cannot write, the order is not sent) and the outcome after, with the measured duration.
import { errorMessage } from '../../contract/index.js';
import type { GatewayResult } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import type { IntentInput, Journal } from './journal.js';

export async function journaled<T>(
  journal: Pick<Journal, 'recordIntent' | 'recordOutcome'>,
  intent: IntentInput,
  call: () => Promise<GatewayResult<T>>,
  logger?: Logger,
): Promise<GatewayResult<T>> {
  // Throws before the call: an order that cannot be journalled is never sent.
  const { id } = journal.recordIntent(intent);
  const started = performance.now();
  const record = (write: () => void): void => {
    // The order has gone out; a journal failure now must not hide its result from the user.
    try {
      write();
    } catch (err) {
      logger?.error('journal outcome not written', { id, reason: errorMessage(err) });
    }
  };
  let result: GatewayResult<T>;
  try {
    result = await call();
  } catch (err) {
    record(() =>
      journal.recordOutcome(id, {
        outcome: 'unknown',
        error: { kind: 'exception', message: errorMessage(err) },
        durationMs: performance.now() - started,
      }),
    );
    throw err;
  }
  const durationMs = performance.now() - started;
  if (result.ok)
    record(() => journal.recordOutcome(id, { outcome: 'ok', response: result.value, durationMs }));
  else {
    const { kind, message, httpStatus } = result.error;
    record(() =>
      journal.recordOutcome(id, {
        outcome: kind === 'unknown_outcome' ? 'unknown' : 'error',
        error: { kind, message, ...(httpStatus !== undefined ? { httpStatus } : {}) },
        durationMs,
      }),
    );
  }
  return result;
}
