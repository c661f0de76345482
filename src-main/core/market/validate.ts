// Asks the gateway, once, whether it knows the instruments of a watch: one `multiquotes` request for
// all of them (a per-symbol `quotes` where the gateway has no multiquotes). Unknown ones come back
// as `not_found`; the quotes read on the way are handed back as first data.
import { QuoteData, type IpcError } from '../../contract/index.js';
import type { GatewayClient, GatewayError, GatewayResult } from '../../gateway/index.js';
import { instrumentKey, type Instrument } from './instruments.js';

export type QuoteClient = Pick<GatewayClient, 'multiquotes' | 'quotes'>;

export interface Checked {
  /** Known to the gateway, with the quote it answered. */
  known: Map<string, { instrument: Instrument; quote: QuoteData }>;
  rejected: { instrument: Instrument; error: IpcError }[];
  /** The gateway answered 404 (route missing) for multiquotes: poll with per-symbol quotes. */
  multiquotesMissing: boolean;
}

export function notFound(message: string): IpcError {
  return { kind: 'not_found', message };
}

/** A refusal of an already validated read is about the instrument: the gateway does not know it. */
export function isUnknownInstrument(error: GatewayError): boolean {
  return error.kind === 'bad_input';
}

/**
 * Rows of a multiquotes answer, each matched to the instrument asked for (rows for anything else are
 * left out): a quote, or the gateway's reason it has none.
 */
export function readRows(
  rows: readonly { symbol: string; exchange: string; data?: unknown; error?: unknown }[],
  asked: readonly Instrument[],
): { instrument: Instrument; quote?: QuoteData; error?: string }[] {
  const byKey = new Map(asked.map((i) => [instrumentKey(i), i]));
  const out: { instrument: Instrument; quote?: QuoteData; error?: string }[] = [];
  for (const row of rows) {
    const instrument = byKey.get(instrumentKey(row));
    if (!instrument) continue;
    // Both result shapes are loose objects: only a parseable quote counts as data.
    const quote = QuoteData.safeParse(row.data);
    if (quote.success) out.push({ instrument, quote: quote.data });
    else {
      const said = typeof row.error === 'string' && row.error !== '' ? row.error : 'no quote for this symbol';
      out.push({ instrument, error: said });
    }
  }
  return out;
}

export async function checkInstruments(
  client: QuoteClient,
  instruments: readonly Instrument[],
  multiquotes: boolean,
): Promise<GatewayResult<Checked>> {
  const checked: Checked = { known: new Map(), rejected: [], multiquotesMissing: false };
  if (multiquotes) {
    const r = await client.multiquotes({ symbols: instruments.map((i) => ({ ...i })) });
    if (r.ok) {
      for (const row of readRows(r.value.results, instruments)) {
        if (row.quote) checked.known.set(instrumentKey(row.instrument), { ...row, quote: row.quote });
        else checked.rejected.push({ instrument: row.instrument, error: notFound(row.error ?? '') });
      }
      return { ok: true, value: checked };
    }
    // 400 on a validated list: the gateway knows none of them (it lists them in `invalid_symbols`).
    if (isUnknownInstrument(r.error)) {
      for (const instrument of instruments)
        checked.rejected.push({ instrument, error: notFound(r.error.message) });
      return { ok: true, value: checked };
    }
    if (r.error.kind !== 'not_offered') return r;
    checked.multiquotesMissing = true;
  }
  for (const instrument of instruments) {
    const r = await client.quotes({ ...instrument });
    if (r.ok) checked.known.set(instrumentKey(instrument), { instrument, quote: r.value.data });
    else if (isUnknownInstrument(r.error))
      checked.rejected.push({ instrument, error: notFound(r.error.message) });
    else return r;
  }
  return { ok: true, value: checked };
}
