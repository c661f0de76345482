// Who or what stopped a send, in the words that start its outcome line: the regular ticket and every
// mode say it alike. Nothing left OrderDesk in any of these cases.
import type { IpcErrorKind } from '@contract';

export function refusalLead(kind: IpcErrorKind): string {
  switch (kind) {
    case 'risk':
      return 'Refused by your risk limits';
    case 'duplicate':
      return 'Held back by the duplicate guard';
    // The same order's earlier intent is still in doubt: the message names it and its time.
    case 'unresolved_duplicate':
      return 'Held back, not sent';
    case 'invalid_input':
      return 'Refused before sending';
    // The gateway could not be reached (or did not answer in time) before anything was sent.
    case 'network':
    case 'timeout':
      return 'Not sent, the gateway is unreachable';
    case 'no_key':
    case 'secret_store':
      return 'Not sent';
    // The journal could not record it (disk full, read-only, damaged): the message says which file.
    case 'storage':
      return 'Not sent, OrderDesk could not record it';
    default:
      return 'Refused by the gateway';
  }
}

/** A hold the trader may overrule deliberately: "Send anyway" sends it again with `confirmDuplicate`. */
export function canSendAnyway(kind: IpcErrorKind): boolean {
  return kind === 'duplicate' || kind === 'unresolved_duplicate';
}
