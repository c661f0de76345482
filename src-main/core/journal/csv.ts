// RFC 4180 CSV: CRLF line ends; a field holding a comma, quote, CR or LF is quoted and its quotes
// doubled. Text that a spreadsheet would run as a formula is prefixed with an apostrophe.

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | null | undefined;

export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record and its CRLF line end. */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(',') + '\r\n';
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
