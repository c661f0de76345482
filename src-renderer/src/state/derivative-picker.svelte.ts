// Picking a derivative step by step, as a trader thinks of it: underlying → exchange → futures or
// options → expiry (`market.expiry`, spec §4.17) → strike → CE/PE. The contract itself comes from
// `market.search` on the underlying and expiry (`NIFTY12MAY26`), never built from the pieces, so
// the symbol is always one the gateway lists. Every load drops answers to an earlier question.
import type { BridgeApi, Exchange, SymbolRecord } from '@contract';
import { sortExpiries } from '@shared/contract-rank.js';
import { parseSymbol, type ParsedSymbol } from '../lib/instrument';

export const PICKER_EXCHANGES = ['NFO', 'BFO', 'MCX', 'CDS'] as const;
export type PickerExchange = (typeof PICKER_EXCHANGES)[number];
export type DerivativeKind = 'futures' | 'options';
export type OptionType = 'CE' | 'PE';

/** Where an underlying's own price is quoted, to start the strike list at the money. */
export const SPOT_EXCHANGES: Readonly<Record<PickerExchange, readonly Exchange[]>> = {
  NFO: ['NSE_INDEX', 'NSE'],
  BFO: ['BSE_INDEX', 'BSE'],
  MCX: [],
  CDS: [],
};

/** `12-MAY-26` → `12MAY26`, as the expiry sits inside a symbol. */
export function expiryCode(expiry: string): string {
  return expiry.replace(/-/g, '').toUpperCase();
}

function sameExpiry(p: ParsedSymbol, code: string): boolean {
  if (p.kind === 'equity') return false;
  const e = p.expiry;
  const text = `${e.day === undefined ? '' : String(e.day).padStart(2, '0')}${e.month}${String(e.year % 100).padStart(2, '0')}`;
  return text === code;
}

/** The nearest strike to a price (the lower one on a tie). */
export function nearestStrike(strikes: readonly number[], price: number): number | undefined {
  let best: number | undefined;
  for (const s of strikes) if (best === undefined || Math.abs(s - price) < Math.abs(best - price)) best = s;
  return best;
}

export class DerivativePickerState {
  underlying = $state('');
  exchange = $state<PickerExchange>('NFO');
  kind = $state<DerivativeKind>('options');
  expiries = $state.raw<string[]>([]);
  expiry = $state('');
  /** The contracts of the chosen expiry (futures, or options of both types). */
  chain = $state.raw<SymbolRecord[]>([]);
  strike = $state<number | undefined>();
  optionType = $state<OptionType>('CE');
  loading = $state(false);
  /** Why a step has nothing to offer (no expiries, search failed), in words. */
  message = $state<string | undefined>();
  /** The chain search hit the gateway's 500-row cap: far strikes may be missing. */
  truncated = $state(false);

  /** The strikes on offer, ascending. */
  readonly strikes: number[] = $derived.by(() => {
    const all: number[] = [];
    for (const r of this.chain) {
      const p = parseSymbol(r.symbol);
      if (p.kind === 'option') all.push(Number(p.strike));
    }
    return all.sort((a, b) => a - b).filter((s, i, sorted) => i === 0 || s !== sorted[i - 1]);
  });

  /** The contract the choices name, once they name one. */
  readonly resolved: SymbolRecord | undefined = $derived.by(() => {
    for (const r of this.chain) {
      const p = parseSymbol(r.symbol);
      if (this.kind === 'futures' && p.kind === 'future') return r;
      if (
        this.kind === 'options' &&
        p.kind === 'option' &&
        p.optionType === this.optionType &&
        this.strike !== undefined &&
        Number(p.strike) === this.strike
      )
        return r;
    }
    return undefined;
  });

  readonly #bridge: BridgeApi;
  #seq = 0;
  /** The underlying's price, asked for with the expiries (not after them): the strike at the money. */
  #spot: Promise<number | undefined> | undefined;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /** Loads the expiries for the underlying, exchange and kind, then the first expiry's contracts. */
  async loadExpiries(): Promise<void> {
    const symbol = this.underlying.trim().toUpperCase();
    const seq = ++this.#seq;
    this.expiries = [];
    this.expiry = '';
    this.chain = [];
    this.strike = undefined;
    this.truncated = false;
    if (symbol === '') {
      this.message = 'Type the underlying (NIFTY, SBIN, CRUDEOIL…)';
      this.loading = false;
      return;
    }
    this.underlying = symbol;
    this.loading = true;
    this.message = undefined;
    // Options start at the money: its price is read beside the expiries and contracts, not after.
    this.#spot = this.kind === 'options' ? this.#spotPrice() : undefined;
    const res = await this.#bridge.invoke('market.expiry', {
      symbol,
      exchange: this.exchange,
      instrumenttype: this.kind,
    });
    if (seq !== this.#seq) return;
    if (!res.ok) {
      this.loading = false;
      this.message = `Expiries could not be read: ${res.error.message}`;
      return;
    }
    // Nearest first by date, whatever order the gateway lists them in.
    this.expiries = sortExpiries(res.value.data);
    if (this.expiries.length === 0) {
      this.loading = false;
      this.message = `No ${this.kind} of ${symbol} on ${this.exchange}`;
      return;
    }
    this.expiry = this.expiries[0] ?? '';
    await this.#loadChain(seq);
  }

  async chooseExpiry(expiry: string): Promise<void> {
    if (!this.expiries.includes(expiry)) return;
    const seq = ++this.#seq;
    this.expiry = expiry;
    // A later choice reads the price afresh, if it needs it.
    this.#spot = undefined;
    await this.#loadChain(seq);
  }

  async #loadChain(seq: number): Promise<void> {
    const symbol = this.underlying;
    const code = expiryCode(this.expiry);
    const previousStrike = this.strike;
    this.loading = true;
    this.chain = [];
    const res = await this.#bridge.invoke('market.search', {
      query: `${symbol}${code}`,
      exchange: this.exchange,
    });
    if (seq !== this.#seq) return;
    if (!res.ok) {
      this.loading = false;
      this.message = `Contracts could not be read: ${res.error.message}`;
      return;
    }
    // The query also matches longer underlyings (BANKNIFTY… contains NIFTY…): keep this one's only.
    const wanted = this.kind === 'futures' ? 'future' : 'option';
    this.chain = res.value.data.filter((r) => {
      const p = parseSymbol(r.symbol);
      return p.kind === wanted && p.underlying === symbol && sameExpiry(p, code);
    });
    // The gateway lists at most 500 rows; only a cut inside this underlying's own rows loses strikes
    // (rows that merely contain the query, BANKNIFTY… for NIFTY, rank after them).
    const last = res.value.data.at(-1);
    this.truncated =
      res.value.data.length >= 500 && last !== undefined && this.chain.some((r) => r.symbol === last.symbol);
    if (this.chain.length === 0) {
      this.loading = false;
      this.message = `No ${this.kind} of ${symbol} expiring ${this.expiry} on ${this.exchange}`;
      return;
    }
    this.message = undefined;
    if (this.kind === 'options') {
      const keep = previousStrike !== undefined && this.strikes.includes(previousStrike);
      const strike = keep ? previousStrike : await this.#atTheMoney(seq);
      if (seq !== this.#seq) return;
      this.strike = strike;
    }
    this.loading = false;
  }

  /** The strike nearest the underlying's last price, or the middle one when no price can be had. */
  async #atTheMoney(seq: number): Promise<number | undefined> {
    const middle = this.strikes[Math.floor(this.strikes.length / 2)];
    const ltp = await (this.#spot ?? this.#spotPrice());
    if (seq !== this.#seq) return undefined;
    return ltp === undefined ? middle : (nearestStrike(this.strikes, ltp) ?? middle);
  }

  /** The underlying's last price where it is quoted (its index first), if any answers. */
  async #spotPrice(): Promise<number | undefined> {
    for (const exchange of SPOT_EXCHANGES[this.exchange]) {
      const res = await this.#bridge.invoke('market.quotes', { symbol: this.underlying, exchange });
      if (res.ok) return res.value.data.ltp;
    }
    return undefined;
  }
}
