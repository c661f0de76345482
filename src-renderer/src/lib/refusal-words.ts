// Who or what stopped a send, in the words that start its outcome line: the regular ticket and every
// mode say it alike. Nothing left OrderDesk in any of these cases.
import type { IpcErrorKind } from '../../../src-main/contract/index.js';

export function refusalLead(kind: IpcErrorKind): string {
  switch (kind) {
    case 'risk':
      return 'Refused by your risk limits';
    case 'duplicate':
      return 'Held back by the duplicate guard';
    case 'invalid_input':
      return 'Refused before sending';
    // The gateway could not be reached (or did not answer in time) before anything was sent.
    case 'network':
    case 'timeout':
      return 'Not sent, the gateway is unreachable';
    case 'no_key':
    case 'secret_store':
      return 'Not sent';
    default:
      return 'Refused by the gateway';
  }
}
