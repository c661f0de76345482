export { CHECKPOINT_EVERY, createJournal, JournalStoreError } from './journal.js';
export type {
  IntentInput,
  Journal,
  JournalFilters,
  JournalOptions,
  OutcomeInput,
  ResolutionInput,
  Unresolved,
} from './journal.js';
export { csvField, csvLine, toCsv } from './csv.js';
export { JOURNAL_CSV_HEADER, journalCsvRow } from './journal-csv.js';
export { fileErrorCode, writeJournalCsv } from './csv-export.js';
export { sanitise, stripKeyFields, orderIdsIn } from './sanitise.js';
export { journaled } from './journaled.js';
export type { SqliteRecovery as JournalRecovery } from '../sqlite-salvage.js';
export { journaledEntry, journalRefusal } from './journaled-entry.js';
