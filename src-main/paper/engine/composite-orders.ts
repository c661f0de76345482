// Smart, split and basket orders: each turns one request into zero or more engine.placeOrder calls
// and shapes the answer like the real gateway (gateway-behaviour §6, §7), its analyze (sandbox) mode
// included: each answer carries top-level `mode: "analyze"`, its results items none. No HTTP here:
// refusals are HttpErrors, which the server turns into `{status:"error", message}`.
import type { BasketOrderRequest, SmartOrderRequest, SplitOrderRequest } from '../../contract/index.js';
import { ANALYZE } from '../http/order-format.js';
import { HttpError } from '../http/route-kit.js';
import type { EngineResult, OrderInput, PaperOrder, TradingEngine } from './engine.js';
import { decideSmartOrder } from '../../shared/smart-order.js';
import { SplitPlanError, planSplit } from '../../shared/split-plan.js';
import { normaliseSymbol } from './validation.js';

/** The engine's refusal as the HTTP error the single-order route would answer with. */
export function refusal(result: Extract<EngineResult<PaperOrder>, { ok: false }>): HttpError {
  return new HttpError(result.status, result.message, result.orderid ? { orderid: result.orderid } : {});
}

/**
 * The account's net position for (symbol, exchange, product), all strategies together: the real
 * gateway reads the broker's position book, which has no strategy (Decision 8). Only filled
 * quantity counts; resting orders do not, as upstream.
 */
export function netPosition(
  engine: TradingEngine,
  account: string,
  key: { symbol: string; exchange: string; product: string },
): number {
  const symbol = normaliseSymbol(key.symbol);
  const row = engine
    .positions(account)
    .find((p) => p.symbol === symbol && p.exchange === key.exchange && p.product === key.product);
  return row?.quantity ?? 0;
}

export type SmartOrderAnswer =
  | { status: 'success'; orderid: string; mode: typeof ANALYZE }
  | { status: 'success'; message: string; mode: typeof ANALYZE };

/** §6: one order that moves the net position to `position_size`, or a 200 no-op with a message. */
export function smartOrder(engine: TradingEngine, account: string, req: SmartOrderRequest): SmartOrderAnswer {
  // Read and place in one transaction; the engine is synchronous, so nothing interleaves. The refusal
  // is thrown outside it: a rejected order the engine recorded must not be rolled back.
  const outcome = engine.transaction(() => {
    const current = netPosition(engine, account, req);
    const decision = decideSmartOrder({ ...req, current });
    if (decision.kind === 'none') return decision;
    // Decision 4: the requested pricetype/price are honoured (the real sandbox forces MARKET).
    return engine.placeOrder(account, {
      ...orderFields(req, req.strategy),
      action: decision.action,
      quantity: decision.quantity,
    });
  });
  if ('kind' in outcome) return { status: 'success', message: outcome.message, mode: ANALYZE };
  if (!outcome.ok) throw refusal(outcome);
  return { status: 'success', orderid: outcome.value.orderid, mode: ANALYZE };
}

export type SplitChild =
  | { order_num: number; orderid: string; quantity: number; status: 'success' }
  | { order_num: number; quantity: number; status: 'error'; message: string };

export interface SplitOrderAnswer {
  status: 'success';
  split_size: number;
  total_quantity: number;
  results: SplitChild[];
  mode: typeof ANALYZE;
}

/** §7.1: children placed in sequence; the answer is 200 even if every child fails (per-child status). */
export function splitOrder(engine: TradingEngine, account: string, req: SplitOrderRequest): SplitOrderAnswer {
  let plan: number[];
  try {
    plan = planSplit(req.quantity, req.splitsize);
  } catch (err) {
    if (err instanceof SplitPlanError) throw new HttpError(400, err.message);
    throw err;
  }
  const results = engine.transaction(() =>
    plan.map((quantity, i): SplitChild => {
      // Upstream's split schema has no disclosed quantity; a child must not carry the parent's.
      const result = engine.placeOrder(account, {
        ...orderFields(req, req.strategy),
        quantity,
        disclosed_quantity: 0,
      });
      return result.ok
        ? { order_num: i + 1, orderid: result.value.orderid, quantity, status: 'success' }
        : { order_num: i + 1, quantity, status: 'error', message: result.message };
    }),
  );
  return {
    status: 'success',
    split_size: req.splitsize,
    total_quantity: req.quantity,
    results,
    mode: ANALYZE,
  };
}

export type BasketLegAnswer =
  | { orderid: string; status: 'success'; symbol: string; exchange: string; product: string }
  | { status: 'error'; symbol: string; message: string };

export interface BasketOrderAnswer {
  status: 'success';
  results: BasketLegAnswer[];
  mode: typeof ANALYZE;
}

/**
 * §7.2: every leg is placed with the basket's strategy, BUY legs first then SELL (stable within each
 * group, like upstream, so buys can fund margin-neutral sells); results follow placement order.
 * Top-level status is success even when legs fail.
 */
export function basketOrder(
  engine: TradingEngine,
  account: string,
  req: BasketOrderRequest,
): BasketOrderAnswer {
  const legs = [
    ...req.orders.filter((l) => l.action === 'BUY'),
    ...req.orders.filter((l) => l.action === 'SELL'),
  ];
  const results = engine.transaction(() =>
    legs.map((leg): BasketLegAnswer => {
      const result = engine.placeOrder(account, orderFields(leg, req.strategy));
      return result.ok
        ? {
            orderid: result.value.orderid,
            status: 'success',
            symbol: result.value.symbol,
            exchange: leg.exchange,
            product: leg.product,
          }
        : { status: 'error', symbol: normaliseSymbol(leg.symbol), message: result.message };
    }),
  );
  return { status: 'success', results, mode: ANALYZE };
}

/** The engine's order input from a parsed leg (the contract's defaults already applied). */
function orderFields(leg: Omit<OrderInput, 'strategy'>, strategy: string): OrderInput {
  return {
    strategy,
    exchange: leg.exchange,
    symbol: leg.symbol,
    action: leg.action,
    quantity: leg.quantity,
    pricetype: leg.pricetype,
    product: leg.product,
    price: leg.price,
    trigger_price: leg.trigger_price,
    disclosed_quantity: leg.disclosed_quantity,
  };
}
