// The journal's CSV columns: one header and one row mapping, shared by the in-memory export and the
// streamed file export so that both write the same bytes.
import type { JournalEntry } from '../../contract/index.js';
import { formatIstIso } from '../../shared/format.js';
import type { CsvCell } from './csv.js';

export const JOURNAL_CSV_HEADER: readonly string[] = [
  'time_ist',
  'id',
  'profile',
  'operation',
  'order_ids',
  'outcome',
  'duration_ms',
  'error_kind',
  'error_message',
  'http_status',
  'request',
  'response',
  'resolution',
];

export function journalCsvRow(e: JournalEntry): CsvCell[] {
  return [
    formatIstIso(e.time),
    e.id,
    e.profileId,
    e.operation,
    e.orderIds.join(' '),
    e.outcome,
    e.durationMs,
    e.error?.kind,
    e.error?.message,
    e.error?.httpStatus,
    JSON.stringify(e.request),
    e.response === undefined ? '' : JSON.stringify(e.response),
    e.resolution?.message,
  ];
}
