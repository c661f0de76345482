// The order channels' two ways into the journal: a gateway call journalled with its entry's id at
// hand (an unknown outcome is tracked by that id), and a refusal made before any call, journalled as
// an error outcome so the journal answers "what did I try?" too.
import type { IpcError, IpcErrorKind, IpcResult } from '../../contract/index.js';
import type { GatewayResult } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import { failResult } from '../router/results.js';
import type { IntentInput, Journal } from './journal.js';
import { journaled } from './journaled.js';

/** `journaled`, with the id of the entry it wrote. */
export async function journaledEntry<T>(
  journal: Pick<Journal, 'recordIntent' | 'recordOutcomeLater' | 'durable'>,
  intent: IntentInput,
  call: () => Promise<GatewayResult<T>>,
  logger?: Logger,
): Promise<{ journalId: string; result: GatewayResult<T> }> {
  let journalId = '';
  const result = await journaled(
    {
      recordIntent: (input) => {
        const written = journal.recordIntent(input);
        journalId = written.id;
        return written;
      },
      recordOutcomeLater: (id, outcome, onError) => journal.recordOutcomeLater(id, outcome, onError),
      durable: () => journal.durable(),
    },
    intent,
    call,
    logger,
  );
  return { journalId, result };
}

/** Journals a refusal made before the call and answers it, naming the journal entry. */
export function journalRefusal<T>(
  journal: Pick<Journal, 'recordIntent' | 'recordOutcome'>,
  intent: IntentInput,
  kind: IpcErrorKind,
  message: string,
  extra: Partial<Omit<IpcError, 'kind' | 'message' | 'journalId'>> = {},
): IpcResult<T> {
  const { id } = journal.recordIntent(intent);
  journal.recordOutcome(id, { outcome: 'error', error: { kind, message } });
  return failResult(kind, message, { journalId: id, ...extra });
}
