// Pre-trade checks before an order leaves: the account guard's lock (only exits while it holds), the
// user's limits (settings), the instrument's lot, tick
// and freeze quantity (`symbol`, cached per session), the last price (one seen within ~2 s, else
// `quotes`, else `depth`), and the duplicate guard. A refusal lists every reason, in en-IN format, from core/risk.
import type { PlaceOrderRequest, RiskLimits } from '../../contract/index.js';
import type { GatewayClient } from '../../gateway/index.js';
import {
  checkOrder,
  limitsFor,
  type DuplicateGuard,
  type InstrumentRules,
  type RiskOrder,
} from '../risk/index.js';

export type RiskLeg = RiskOrder;
export type RiskReads = Pick<GatewayClient, 'symbol' | 'quotes' | 'depth'>;

/**
 * Failures of the price read that say the gateway cannot take an order now (down, slow, refusing the
 * key): the order is not sent, and the trader is told that, not that a risk limit refused it.
 */
const GATEWAY_UNAVAILABLE = [
  'network',
  'timeout',
  'server',
  'rate_limited',
  'unauthorised',
  'forbidden',
  'no_key',
  'secret_store',
] as const;
export type GateUnavailableKind = (typeof GATEWAY_UNAVAILABLE)[number];
const isUnavailable = (kind: string): kind is GateUnavailableKind =>
  (GATEWAY_UNAVAILABLE as readonly string[]).includes(kind);

export type GateRefusal = { ok: false; kind: 'risk' | 'duplicate' | GateUnavailableKind; message: string };

export interface RiskGate {
  /** Checks every leg; the duplicate guard admits each one unless `confirmDuplicate`. */
  check(
    client: RiskReads,
    legs: readonly RiskLeg[],
    options: {
      scope: string;
      confirmDuplicate?: boolean;
      skipDuplicate?: boolean;
      /** A GTT's legs: their prices are meant to be away from the market, so no band applies. */
      skipPriceBand?: boolean;
    },
  ): Promise<{ ok: true } | GateRefusal>;
  /** The duplicate guard alone. */
  admit(
    legs: readonly RiskLeg[],
    options: { scope: string; confirmDuplicate?: boolean },
  ): { ok: true } | { ok: false; kind: 'duplicate'; message: string };
  /** Orders sent earlier (journalled by another run), for the duplicate guard. */
  remember(legs: readonly RiskLeg[], options: { scope: string; atMs: number }): void;
  clear(): void;
}

/** Prices the core has seen lately (core/market's LastPrices); `undefined` when none is fresh. */
export interface FreshPrices {
  fresh(scope: string, instrument: { symbol: string; exchange: string }): number | undefined;
}

/** The account guard's lock (core/guard): why these legs cannot go out now, or undefined. */
export type AccountLock = (scope: string, legs: readonly RiskLeg[]) => string | undefined;

export function createRiskGate(
  limits: () => RiskLimits,
  guard: DuplicateGuard,
  prices?: FreshPrices,
  lock?: AccountLock,
): RiskGate {
  const rules = new Map<string, InstrumentRules | null>();

  async function instrument(
    client: RiskReads,
    scope: string,
    leg: RiskLeg,
  ): Promise<InstrumentRules | undefined> {
    const key = `${scope}|${leg.exchange}:${leg.symbol.toUpperCase()}`;
    if (rules.has(key)) return rules.get(key) ?? undefined;
    const r = await client.symbol({ symbol: leg.symbol, exchange: leg.exchange });
    if (!r.ok) {
      // Not offered: remember, and leave lot/tick/freeze to the exchange. Other failures: ask again next time.
      if (r.error.kind === 'not_offered') rules.set(key, null);
      return undefined;
    }
    const d = r.value.data;
    const found: InstrumentRules = { lotSize: d.lotsize > 0 ? d.lotsize : 1, tickSize: d.tick_size };
    if (d.freeze_qty !== undefined && d.freeze_qty > 0) found.freezeQty = d.freeze_qty;
    rules.set(key, found);
    return found;
  }

  /** The last price, or why the gateway could not give one (`unavailable`: it cannot take orders now). */
  async function lastPrice(
    client: RiskReads,
    scope: string,
    leg: RiskLeg,
  ): Promise<{ price?: number; unavailable?: { kind: GateUnavailableKind; message: string } }> {
    // A price seen in the last moments (polling, positions) is as good as asking again, and asking
    // would put a round trip and a rate-budget slot in front of every order.
    const known = prices?.fresh(scope, { symbol: leg.symbol, exchange: leg.exchange });
    if (known !== undefined) return { price: known };
    const q = await client.quotes({ symbol: leg.symbol, exchange: leg.exchange });
    if (q.ok) return q.value.data.ltp > 0 ? { price: q.value.data.ltp } : {};
    if (isUnavailable(q.error.kind)) return { unavailable: { kind: q.error.kind, message: q.error.message } };
    if (q.error.kind !== 'not_offered') return {};
    const d = await client.depth({ symbol: leg.symbol, exchange: leg.exchange });
    if (d.ok) return d.value.data.ltp > 0 ? { price: d.value.data.ltp } : {};
    return isUnavailable(d.error.kind)
      ? { unavailable: { kind: d.error.kind, message: d.error.message } }
      : {};
  }

  function admit(
    legs: readonly RiskLeg[],
    options: { scope: string; confirmDuplicate?: boolean },
  ): { ok: true } | { ok: false; kind: 'duplicate'; message: string } {
    for (const leg of legs) {
      const d = guard.admit(leg, {
        scope: options.scope,
        ...(options.confirmDuplicate ? { confirmDuplicate: true } : {}),
      });
      if (!d.ok) return { ok: false, kind: 'duplicate', message: d.reasons.join('; ') };
    }
    return { ok: true };
  }

  return {
    async check(client, legs, options) {
      // A lock refuses before anything is read: only orders that reduce a position go out.
      const locked = lock?.(options.scope, legs);
      if (locked !== undefined) return { ok: false, kind: 'risk', message: locked };
      const reasons: string[] = [];
      const all = limits();
      for (const leg of legs) {
        // An instrument's own limits replace the general ones for it.
        const { limits: own, override } = limitsFor(all, leg);
        const l = options.skipPriceBand ? { ...own, priceBandPercent: 0 } : own;
        const inst = await instrument(client, options.scope, leg);
        const needsPrice = leg.pricetype === 'MARKET' || l.priceBandPercent > 0;
        const read = needsPrice ? await lastPrice(client, options.scope, leg) : {};
        const ltp = read.price;
        const r = checkOrder(leg, {
          limits: l,
          ...(override ? { override } : {}),
          ...(inst ? { instrument: inst } : {}),
          ...(ltp !== undefined ? { lastPrice: ltp } : {}),
        });
        // The checks could not be made for want of the price the gateway failed to give: that failure
        // (down, slow, refusing) is what stops the order, and what the trader must hear.
        if (!r.ok && read.unavailable)
          return {
            ok: false,
            kind: read.unavailable.kind,
            message: `the gateway did not give ${leg.symbol}'s last price for the risk check: ${read.unavailable.message}`,
          };
        if (!r.ok)
          reasons.push(...(legs.length > 1 ? r.reasons.map((x) => `${leg.symbol}: ${x}`) : r.reasons));
      }
      if (reasons.length) return { ok: false, kind: 'risk', message: reasons.join('; ') };
      if (options.skipDuplicate) return { ok: true };
      return admit(legs, options);
    },
    admit,
    remember(legs, options) {
      for (const leg of legs) guard.remember(leg, options.atMs, { scope: options.scope });
    },
    clear() {
      rules.clear();
      guard.clear();
    },
  };
}

/** The fields the checks read, from any order-shaped request. */
export function riskLeg(o: Omit<PlaceOrderRequest, 'apikey' | 'strategy' | 'disclosed_quantity'>): RiskLeg {
  return {
    symbol: o.symbol,
    exchange: o.exchange,
    action: o.action,
    quantity: o.quantity,
    pricetype: o.pricetype,
    product: o.product,
    price: o.price,
    trigger_price: o.trigger_price,
  };
}
