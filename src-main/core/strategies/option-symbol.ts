// An option contract's parts read from its OpenAlgo symbol, `<UNDERLYING><DD><MMM><YY><STRIKE><CE|PE>`
// (NIFTY24NOV2626100CE, VEDL25APR24292.5CE): what a strategy's legs must share is the underlying.
const OPTION =
  /^([A-Z][A-Z0-9&-]*?)(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2})(\d+(?:\.\d+)?)(CE|PE)$/;

export interface OptionContract {
  underlying: string;
  /** DDMMMYY, as in the symbol. */
  expiry: string;
  strike: number;
  kind: 'CE' | 'PE';
}

/** The contract's parts, or undefined when the symbol is not an option's. */
export function parseOptionSymbol(symbol: string): OptionContract | undefined {
  const m = OPTION.exec(symbol.trim().toUpperCase());
  if (!m) return undefined;
  const [, underlying = '', day = '', month = '', year = '', strike = '', kind = ''] = m;
  const dd = Number(day);
  if (dd < 1 || dd > 31) return undefined;
  return { underlying, expiry: `${day}${month}${year}`, strike: Number(strike), kind: kind as 'CE' | 'PE' };
}

/** Options exchanges: a strategy's legs are contracts listed on one of these. */
export const OPTION_EXCHANGES: ReadonlySet<string> = new Set(['NFO', 'BFO', 'MCX', 'CDS', 'BCD']);
