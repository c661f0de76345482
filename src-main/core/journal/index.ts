export { createJournal, JournalStoreError } from './journal.js';
export type {
  IntentInput,
  Journal,
  JournalOptions,
  OutcomeInput,
  ResolutionInput,
  Unresolved,
} from './journal.js';
export { csvField, toCsv } from './csv.js';
export { sanitise, stripKeyFields, orderIdsIn } from './sanitise.js';
export { journaled } from './journaled.js';
