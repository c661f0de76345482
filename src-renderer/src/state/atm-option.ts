// The at-the-money call or put of the ticket's underlying, as the gateway lists it: the underlying's
// spot (market.quotes), its nearest expiry (market.expiry) and that expiry's contracts
// (market.search), the strike nearest the spot. Expiries and contracts are kept a minute per
// underlying, so a scalper's key costs one spot quote and one option quote, not five round trips.
import type { BridgeApi, Exchange, IpcError, Product } from '@contract';
import { parseSymbol, productsFor } from '../lib/instrument';
import { expiryCode, nearestStrike } from './derivative-picker.svelte';

export interface AtmUnderlying {
  /** NIFTY, SBIN… */
  underlying: string;
  /** Where its options trade. */
  exchange: 'NFO' | 'BFO';
  /** Where its own price is quoted, tried in order. */
  spot: readonly Exchange[];
}

export interface AtmOption {
  symbol: string;
  exchange: 'NFO' | 'BFO';
  strike: number;
  optionType: 'CE' | 'PE';
  lotSize: number;
  /** The option's last price (for the value cap). */
  ltp?: number;
  /** The spot the strike was chosen from. */
  spot: number;
  expiry: string;
}

export type AtmResult = { ok: true; option: AtmOption } | { ok: false; message: string };

const CACHE_MS = 60_000;

/** The underlying whose options the ticket's instrument leads to; undefined where there are none. */
export function atmUnderlyingOf(inst: { symbol: string; exchange: string }): AtmUnderlying | undefined {
  const p = parseSymbol(inst.symbol);
  const nse = { exchange: 'NFO', spot: ['NSE_INDEX', 'NSE'] } as const;
  const bse = { exchange: 'BFO', spot: ['BSE_INDEX', 'BSE'] } as const;
  if (p.kind !== 'equity') {
    if (inst.exchange === 'NFO') return { underlying: p.underlying, ...nse };
    if (inst.exchange === 'BFO') return { underlying: p.underlying, ...bse };
    return undefined;
  }
  const symbol = inst.symbol.toUpperCase();
  if (inst.exchange === 'NSE_INDEX' || inst.exchange === 'NSE') return { underlying: symbol, ...nse };
  if (inst.exchange === 'BSE_INDEX' || inst.exchange === 'BSE') return { underlying: symbol, ...bse };
  return undefined;
}

/** The product an option order takes: the ticket's when the exchange allows it, else its usual one. */
export function optionProduct(ticketProduct: Product, exchange: string): Product {
  const allowed = productsFor(exchange);
  return allowed.includes(ticketProduct) ? ticketProduct : (allowed[0] ?? 'MIS');
}

interface Chain {
  at: number;
  expiry: string;
  /** strike → CE/PE contract and lot size */
  contracts: { symbol: string; strike: number; optionType: 'CE' | 'PE'; lotSize: number }[];
}

const why = (what: string, e: IpcError) => `${what}: ${e.message}`;

export class AtmOptionFinder {
  readonly #bridge: BridgeApi;
  readonly #now: () => number;
  readonly #chains = new Map<string, Chain>();

  constructor(bridge: BridgeApi, now: () => number = Date.now) {
    this.#bridge = bridge;
    this.#now = now;
  }

  async find(u: AtmUnderlying, optionType: 'CE' | 'PE'): Promise<AtmResult> {
    const [spot, chain] = await Promise.all([this.#spot(u), this.#chain(u)]);
    if (!spot.ok) return spot;
    if (!chain.ok) return chain;
    const strikes = [...new Set(chain.chain.contracts.map((c) => c.strike))];
    const strike = nearestStrike(strikes, spot.ltp);
    const contract = chain.chain.contracts.find((c) => c.strike === strike && c.optionType === optionType);
    if (strike === undefined || !contract)
      return {
        ok: false,
        message: `No ${optionType} near ${spot.ltp} for ${u.underlying} ${chain.chain.expiry}`,
      };
    const quote = await this.#bridge.invoke('market.quotes', {
      symbol: contract.symbol,
      exchange: u.exchange,
    });
    return {
      ok: true,
      option: {
        symbol: contract.symbol,
        exchange: u.exchange,
        strike,
        optionType,
        lotSize: contract.lotSize,
        ...(quote.ok ? { ltp: quote.value.data.ltp } : {}),
        spot: spot.ltp,
        expiry: chain.chain.expiry,
      },
    };
  }

  async #spot(u: AtmUnderlying): Promise<{ ok: true; ltp: number } | { ok: false; message: string }> {
    let last: IpcError | undefined;
    for (const exchange of u.spot) {
      const res = await this.#bridge.invoke('market.quotes', { symbol: u.underlying, exchange });
      if (res.ok && res.value.data.ltp > 0) return { ok: true, ltp: res.value.data.ltp };
      if (!res.ok) last = res.error;
    }
    return {
      ok: false,
      message: last ? why(`No spot price for ${u.underlying}`, last) : `No spot price for ${u.underlying}`,
    };
  }

  async #chain(u: AtmUnderlying): Promise<{ ok: true; chain: Chain } | { ok: false; message: string }> {
    const key = `${u.exchange}:${u.underlying}`;
    const cached = this.#chains.get(key);
    if (cached && this.#now() - cached.at < CACHE_MS) return { ok: true, chain: cached };
    const expiries = await this.#bridge.invoke('market.expiry', {
      symbol: u.underlying,
      exchange: u.exchange,
      instrumenttype: 'options',
    });
    if (!expiries.ok) return { ok: false, message: why(`No expiries for ${u.underlying}`, expiries.error) };
    const expiry = expiries.value.data[0];
    if (!expiry) return { ok: false, message: `${u.underlying} has no options on ${u.exchange}` };
    const code = expiryCode(expiry);
    const found = await this.#bridge.invoke('market.search', {
      query: `${u.underlying}${code}`,
      exchange: u.exchange,
    });
    if (!found.ok)
      return { ok: false, message: why(`No contracts for ${u.underlying} ${expiry}`, found.error) };
    const contracts: Chain['contracts'] = [];
    for (const r of found.value.data) {
      const p = parseSymbol(r.symbol);
      // The query also matches longer names (BANKNIFTY… for NIFTY…) and other expiries' prefixes.
      if (
        p.kind !== 'option' ||
        p.underlying !== u.underlying ||
        !r.symbol.startsWith(`${u.underlying}${code}`)
      )
        continue;
      contracts.push({
        symbol: r.symbol,
        strike: Number(p.strike),
        optionType: p.optionType,
        lotSize: r.lotsize,
      });
    }
    if (contracts.length === 0)
      return { ok: false, message: `No ${u.underlying} options expiring ${expiry}` };
    const chain = { at: this.#now(), expiry, contracts };
    this.#chains.set(key, chain);
    return { ok: true, chain };
  }
}
