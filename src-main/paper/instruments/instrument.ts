// The paper gateway's instrument model: one row of the master contract plus what the simulator
// needs to price it. Shared by the master builder, the search index, the market and the server.

export const TRADABLE_EXCHANGES = ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS'] as const;
export const INDEX_EXCHANGES = ['NSE_INDEX', 'BSE_INDEX'] as const;
export type PaperExchange = (typeof TRADABLE_EXCHANGES)[number] | (typeof INDEX_EXCHANGES)[number];

/** EQ: cash equity; INDEX: quote-only index; FUT: future; CE/PE: option. */
export type InstrumentKind = 'EQ' | 'INDEX' | 'FUT' | 'CE' | 'PE';

/**
 * One underlying price series. Every instrument is priced from exactly one: equities and indices
 * are their own underlying; futures and options derive from theirs (MCX and CDS underlyings are
 * hidden spot series with no row of their own).
 */
export interface Underlying {
  /** Stable key, e.g. `NSE:RELIANCE`, `NSE_INDEX:NIFTY`, `MCX:CRUDEOIL`, `CDS:USDINR`. */
  key: string;
  name: string;
  /** Reference spot price in rupees around which the path wanders. */
  basePrice: number;
  /** Tick size of the spot series in rupees. */
  tickSize: number;
  /** Annualised volatility used by the path and the option model, e.g. 0.18. */
  volatility: number;
}

export interface Instrument {
  /** Insertion sequence, 1-based and stable for a given (seed, date). */
  id: number;
  symbol: string;
  brsymbol: string;
  name: string;
  exchange: PaperExchange;
  brexchange: string;
  token: string;
  /** DD-MMM-YY upper-case for derivatives, '' otherwise. */
  expiry: string;
  /** The expiry as YYYY-MM-DD (IST calendar date), null for EQ and INDEX. */
  expiryDate: string | null;
  /** Strike for options; -0.01 for equities and indices; 0 for futures. */
  strike: number;
  lotsize: number;
  /** Broker vocabulary: '' (equity), INDEX, FUTIDX, FUTSTK, OPTIDX, OPTSTK, FUTCOM, OPTFUT, FUTCUR, OPTCUR. */
  instrumenttype: string;
  /** Tick size in rupees (always rupees in the paper gateway). */
  tickSize: number;
  /** Maximum quantity of one order (units, not lots). */
  freezeQty: number;
  kind: InstrumentKind;
  /** Key of the Underlying this instrument is priced from. */
  underlyingKey: string;
}

export interface InstrumentMaster {
  /** Every row, in insertion order (id ascending). */
  readonly all: readonly Instrument[];
  readonly underlyings: ReadonlyMap<string, Underlying>;
  get(exchange: string, symbol: string): Instrument | undefined;
  /** Derivatives of one underlying name (e.g. NIFTY) on one exchange. */
  derivatives(exchange: string, underlyingName: string): readonly Instrument[];
}
