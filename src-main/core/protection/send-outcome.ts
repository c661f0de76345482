// What a failed send means for a protective order: the gateway or the desk said no (refused: the
// trader is told, nothing is retried), nothing was sent or acted on (sent again on the next look),
// or the gateway may have acted (in doubt until the book shows it; never sent again). One table for
// the gateway client's answers and the router's, whose error kinds include the client's.
import type { IpcErrorKind } from '../../contract/index.js';
import type { SendResult } from './bracket-keeper.js';

export function outcomeOf(e: { kind: IpcErrorKind }): 'refused' | 'unknown' | 'not_sent' {
  switch (e.kind) {
    case 'rate_limited':
    case 'network':
    case 'no_key':
    case 'secret_store':
    case 'unauthorised':
    case 'storage':
      return 'not_sent';
    case 'server':
    case 'timeout':
    case 'bad_response':
    case 'unknown_outcome':
      return 'unknown';
    default:
      return 'refused';
  }
}

/** A gateway client's or the router's answer to a place, modify or cancel, as the keeper reads it. */
export function sendResultOf(
  r: { ok: true; value: { orderid: string } } | { ok: false; error: { kind: IpcErrorKind; message: string } },
): SendResult {
  return r.ok
    ? { ok: true, orderid: r.value.orderid }
    : { ok: false, outcome: outcomeOf(r.error), message: r.error.message };
}
