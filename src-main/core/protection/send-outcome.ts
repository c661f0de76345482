// What a gateway error means for a protective order: the gateway said no (refused: the trader is
// told, nothing is retried), it did not act (sent again on the next book), or it may have acted (in
// doubt until the book shows it; never sent again).
import type { GatewayError } from '../../gateway/index.js';

export function outcomeOf(e: Pick<GatewayError, 'kind'>): 'refused' | 'unknown' | 'not_sent' {
  switch (e.kind) {
    case 'bad_input':
    case 'forbidden':
    case 'not_offered':
    case 'queued':
      return 'refused';
    case 'rate_limited':
    case 'network':
    case 'no_key':
    case 'secret_store':
    case 'unauthorised':
      return 'not_sent';
    case 'server':
    case 'timeout':
    case 'bad_response':
    case 'unknown_outcome':
      return 'unknown';
  }
}
