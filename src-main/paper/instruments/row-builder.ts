// Accumulates master-contract rows: assigns ids in insertion order and per-exchange tokens, and keeps
// the underlying series every row prices from.
import type { Instrument, PaperExchange, Underlying } from './instrument.js';

export type RowDraft = Omit<Instrument, 'id' | 'token'>;

// Per-exchange token ranges, loosely after real token schemes (NSE index tokens start at 26000,
// BSE scrip codes at 500001, BSE index tokens at 99919000). Tokens are numeric strings, unique per
// exchange; derivative tokens depend on the build date, since the set of live contracts does.
const FIRST_TOKEN: Record<PaperExchange, number> = {
  NSE: 1001,
  BSE: 500001,
  NSE_INDEX: 26000,
  BSE_INDEX: 99919000,
  NFO: 35001,
  BFO: 800001,
  MCX: 400001,
  CDS: 1001,
};

export class RowBuilder {
  readonly rows: Instrument[] = [];
  readonly underlyings = new Map<string, Underlying>();
  private readonly nextToken = new Map<PaperExchange, number>();

  /** The id the next pushed row must carry. */
  nextId(): number {
    return this.rows.length + 1;
  }

  /** Takes the exchange's next token. */
  token(exchange: PaperExchange): string {
    const n = this.nextToken.get(exchange) ?? FIRST_TOKEN[exchange];
    this.nextToken.set(exchange, n + 1);
    return String(n);
  }

  /** Appends a row built with nextId() and token() (the hot path: no intermediate draft object). */
  push(row: Instrument): void {
    if (row.id !== this.rows.length + 1)
      throw new Error(`Row ${row.symbol} has id ${row.id}, expected next id`);
    this.rows.push(row);
  }

  add(draft: RowDraft): Instrument {
    // Explicit fields (not a spread): one object shape for all rows.
    const row: Instrument = {
      id: this.nextId(),
      symbol: draft.symbol,
      brsymbol: draft.brsymbol,
      name: draft.name,
      exchange: draft.exchange,
      brexchange: draft.brexchange,
      token: this.token(draft.exchange),
      expiry: draft.expiry,
      expiryDate: draft.expiryDate,
      strike: draft.strike,
      lotsize: draft.lotsize,
      instrumenttype: draft.instrumenttype,
      tickSize: draft.tickSize,
      freezeQty: draft.freezeQty,
      kind: draft.kind,
      underlyingKey: draft.underlyingKey,
    };
    this.rows.push(row);
    return row;
  }

  addUnderlying(u: Underlying): void {
    if (this.underlyings.has(u.key)) throw new Error(`Duplicate underlying ${u.key}`);
    this.underlyings.set(u.key, u);
  }
}
