// Replays of the hosted closeposition (gateway-behaviour §14): the first answer to a request id is
// kept with the request it answered, so a retry gets the same answer without acting again, and the
// id reused for another request is refused rather than answered with someone else's success.
import type { EngineResult } from './engine.js';
import type { Ledger } from './ledger.js';
import { refuse } from './order-rules.js';

/** Call inside a transaction: the answer is stored with whatever `compute` did. */
export function replayOrRemember(
  ledger: Ledger,
  account: string,
  requestId: string,
  request: string,
  nowMs: number,
  compute: () => unknown,
): EngineResult<unknown> {
  const stored = ledger.response(account, requestId);
  if (stored !== undefined) {
    // A row from before requests were kept ('') cannot be checked, so it is not replayed either.
    if (stored.request !== request) {
      return refuse(
        409,
        `request_id ${requestId} was already used for a different request; send this one with a new request_id`,
      );
    }
    return { ok: true, value: JSON.parse(stored.body) as unknown };
  }
  const value = compute();
  ledger.insertResponse(account, requestId, { request, body: JSON.stringify(value ?? null) }, nowMs);
  return { ok: true, value };
}
