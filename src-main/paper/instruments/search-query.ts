// Query parsing and row matching for symbol search, shared by the index and the linear baseline so
// both apply exactly the same rules (docs/gateway-behaviour.md section 8.3, OpenAlgo's in-memory
// search_symbols): whitespace-split upper-cased terms, every term a substring of symbol, brsymbol,
// name or token, or a numeric term equal to a (non-zero) strike.

/** The service caps results at 500. */
export const SEARCH_LIMIT = 500;

/** Python's str.isspace() set, so split/strip behave like str.split()/str.strip(). */
const PY_SPACE =
  '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
export const PY_SPACE_RE = new RegExp(PY_SPACE);
const SPLIT_RE = new RegExp(`${PY_SPACE}+`);
const TRIM_RE = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

// Python float(): optional sign, digits with single underscores between them, optional fraction and
// exponent, or inf/infinity/nan. (Non-ASCII digits, which Python also accepts, are not numbers here.)
const DIGITS = '\\d(?:_?\\d)*';
const DECIMAL_RE = new RegExp(
  `^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`,
);
const SPECIAL_RE = /^([+-]?)(inf|infinity|nan)$/i;

export interface ParsedQuery {
  /** The stripped, upper-cased whole query (compared with the symbol for scores 0 and 1). */
  whole: string;
  terms: readonly string[];
  /** Per term: its float value when it parses as one, else null. */
  numbers: readonly (number | null)[];
  /** Python only tries the strike comparison when some term is numeric. */
  anyNumber: boolean;
}

export function parseQuery(query: string): ParsedQuery {
  const whole = query.replace(TRIM_RE, '').toUpperCase();
  const terms = query
    .split(SPLIT_RE)
    .filter((t) => t.length > 0)
    .map((t) => t.toUpperCase());
  const numbers = terms.map(pythonFloat);
  return { whole, terms, numbers, anyNumber: numbers.some((x) => x !== null) };
}

export function pythonFloat(term: string): number | null {
  if (DECIMAL_RE.test(term)) return Number(term.replace(/_/g, ''));
  const m = SPECIAL_RE.exec(term);
  if (!m) return null;
  if (m[2]?.toLowerCase() === 'nan') return Number.NaN;
  return m[1] === '-' ? -Infinity : Infinity;
}

/** The searchable fields of one row, upper-cased once (the token is matched as stored). */
export interface SearchFields {
  symbolU: string;
  brsymbolU: string;
  nameU: string;
  token: string;
  strike: number;
}

/**
 * -1 when the row does not match; otherwise its score: 0 symbol equals the whole query, 1 symbol starts
 * with it, 2 every term is inside the symbol, 3 matched only through brsymbol/name/token/strike.
 */
export function scoreRow(row: SearchFields, q: ParsedQuery): number {
  let allInSymbol = true;
  for (let i = 0; i < q.terms.length; i++) {
    const term = q.terms[i] as string;
    if (row.symbolU.includes(term)) continue;
    allInSymbol = false;
    if (row.brsymbolU.includes(term) || row.nameU.includes(term) || row.token.includes(term)) continue;
    // Python: `... and symbol_data.strike` — a zero strike (futures) never matches a number.
    if (q.anyNumber && row.strike !== 0 && q.numbers[i] === row.strike) continue;
    return -1;
  }
  if (row.symbolU === q.whole) return 0;
  if (row.symbolU.startsWith(q.whole)) return 1;
  return allInSymbol ? 2 : 3;
}

export function fieldsOf(row: {
  symbol: string;
  brsymbol: string;
  name: string;
  token: string;
  strike: number;
}): SearchFields {
  return {
    symbolU: row.symbol.toUpperCase(),
    brsymbolU: row.brsymbol.toUpperCase(),
    nameU: row.name.toUpperCase(),
    token: row.token,
    strike: row.strike,
  };
}
