// Account-wide cancel-all, strategy-scoped close and exposure check, plus the mode snapshot
// (gateway-behaviour §3.7, §3.8, §10, §14; Decisions 5 and 8). The cancel-all and close answers carry
// top-level `mode: "analyze"`, as the live sandbox's do. No HTTP here: refusals are HttpErrors.
import type {
  CancelAllOrderRequest,
  ClosePositionRequest,
  HostedClosePositionRequest,
  PositionsOpenRequest,
} from '../../contract/index.js';
import { ANALYZE } from '../http/order-format.js';
import { HttpError } from '../http/route-kit.js';
import type { StrategyExposure, TradingEngine } from './engine.js';

export interface CancelAllAnswer {
  status: 'success';
  canceled_orders: string[];
  failed_cancellations: { orderid: string; message: string }[];
  message: string;
  mode: typeof ANALYZE;
}

/**
 * Cancels every `open` and `trigger pending` order of the account (Decision 5: upstream's sandbox
 * misses the latter). As upstream's broker plugins and sandbox, `strategy` is required but does not
 * scope it: a panic "cancel all" must leave no order working.
 */
export function cancelAllOrders(
  engine: TradingEngine,
  account: string,
  _req: CancelAllOrderRequest,
): CancelAllAnswer {
  return engine.transaction(() => {
    const pending = engine
      .orders(account)
      .filter((o) => o.status === 'open' || o.status === 'trigger pending');
    if (pending.length === 0)
      return {
        status: 'success',
        canceled_orders: [],
        failed_cancellations: [],
        message: 'No open orders to cancel',
        mode: ANALYZE,
      };
    const answer: CancelAllAnswer = {
      status: 'success',
      canceled_orders: [],
      failed_cancellations: [],
      message: '',
      mode: ANALYZE,
    };
    for (const order of pending) {
      const result = engine.cancelOrder(account, order.orderid);
      if (result.ok) answer.canceled_orders.push(order.orderid);
      else answer.failed_cancellations.push({ orderid: order.orderid, message: result.message });
    }
    answer.message = `Canceled ${answer.canceled_orders.length} orders. Failed to cancel ${answer.failed_cancellations.length} orders.`;
    return answer;
  });
}

export const SQUARED_OFF_MESSAGE = 'All Open Positions SquaredOff';
export const NO_EXPOSURE_MESSAGE = 'No open positions to close';
export const NO_STRATEGY_EXPOSURE = 'NO_STRATEGY_EXPOSURE';

export interface CloseAnswer {
  status: 'success';
  message: string;
  /** NO_STRATEGY_EXPOSURE when the strategy held nothing: the zero-exposure proof of spec §4.15. */
  code?: typeof NO_STRATEGY_EXPOSURE;
  closed_positions: number;
  failed_closures: number;
  /** Present only when some counter-order was refused. */
  failures?: { symbol: string; exchange: string; product: string; message: string }[];
  /** `analyze` always; the hosted variant (mode-aware responses, §14) adds the snapshot fields. */
  mode: string;
  balance_type?: string;
  mode_version?: number;
}

/**
 * Squares off only the submitted strategy's exposure (Decision 8): one MARKET counter-order per
 * (symbol, exchange, product), same product, tagged with the strategy so its attribution nets to
 * zero. The size is the eventual exposure: filled quantity plus the unfilled rest of the strategy's
 * working MARKET orders, which will still fill (Decision 6: a large MARKET order may rest partly
 * filled). Without that, a second close while the first is still filling would over-close.
 * Resting LIMIT/SL orders are left alone, as upstream (cancelallorder first). A refused
 * counter-order does not stop the others; like upstream's sandbox the answer stays 200 and reports
 * the counts (callers verify with positionsopen).
 */
export function closeStrategy(
  engine: TradingEngine,
  account: string,
  req: ClosePositionRequest,
): CloseAnswer {
  return engine.transaction(() => {
    const eventual = eventualExposure(engine, account, req.strategy);
    if (eventual.size === 0)
      return {
        status: 'success',
        message: NO_EXPOSURE_MESSAGE,
        code: NO_STRATEGY_EXPOSURE,
        closed_positions: 0,
        failed_closures: 0,
        mode: ANALYZE,
      };
    const failures: NonNullable<CloseAnswer['failures']> = [];
    let closed = 0;
    for (const e of eventual.values()) {
      if (e.quantity === 0) continue; // already closing: the in-flight orders cover it
      const result = engine.placeOrder(account, {
        strategy: req.strategy,
        exchange: e.exchange,
        symbol: e.symbol,
        action: e.quantity > 0 ? 'SELL' : 'BUY',
        quantity: Math.abs(e.quantity),
        pricetype: 'MARKET',
        product: e.product,
        price: 0,
        trigger_price: 0,
        disclosed_quantity: 0,
      });
      if (result.ok) closed++;
      else
        failures.push({
          symbol: e.symbol,
          exchange: e.exchange,
          product: e.product,
          message: result.message,
        });
    }
    if (failures.length === 0)
      return {
        status: 'success',
        message: SQUARED_OFF_MESSAGE,
        closed_positions: closed,
        failed_closures: 0,
        mode: ANALYZE,
      };
    return {
      status: 'success',
      message: `Closed ${closed} positions (Failed to close ${failures.length} positions)`,
      closed_positions: closed,
      failed_closures: failures.length,
      failures,
      mode: ANALYZE,
    };
  });
}

/**
 * Per (symbol, exchange, product): the strategy's filled net quantity plus the signed unfilled rest
 * of its working MARKET orders. Empty only when the strategy holds nothing and has nothing filling.
 */
export function eventualExposure(
  engine: TradingEngine,
  account: string,
  strategy: string,
): Map<string, StrategyExposure> {
  const byKey = new Map<string, StrategyExposure>();
  const add = (e: StrategyExposure) => {
    const key = `${e.exchange}|${e.symbol}|${e.product}`;
    const row = byKey.get(key) ?? { symbol: e.symbol, exchange: e.exchange, product: e.product, quantity: 0 };
    row.quantity += e.quantity;
    byKey.set(key, row);
  };
  for (const e of engine.strategyExposure(account, strategy)) if (e.quantity !== 0) add(e);
  for (const o of engine.orders(account)) {
    if (o.strategy !== strategy || o.pricetype !== 'MARKET') continue;
    if (o.status !== 'open' && o.status !== 'trigger pending') continue;
    const rest = o.quantity - o.filled_quantity;
    if (rest > 0) add({ ...o, quantity: o.action === 'BUY' ? rest : -rest });
  }
  return byKey;
}

export const HOSTED_CLOSE_FIELDS = [
  'expected_mode',
  'expected_balance_type',
  'expected_mode_version',
  'request_id',
] as const;

/** A body carrying any hosted field is the hosted variant, which then requires all of them. */
export function isHostedClose(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    HOSTED_CLOSE_FIELDS.some(
      (f) => Object.hasOwn(body, f) && (body as Record<string, unknown>)[f] !== undefined,
    )
  );
}

/** HTTP status of a stale mode snapshot: 409 Conflict (the client's view conflicts with the server's state). */
export const MODE_SWITCH_STATUS = 409;

/**
 * Hosted closeposition (§14): the snapshot must match engine.mode(), else 409
 * SERVER_MODE_SWITCH_DETECTED with the current values (checked first, and never remembered, so a
 * retry with a fresh snapshot can act). A repeated request_id of the same account (key) returns the
 * first answer, NO_STRATEGY_EXPOSURE included, without acting again, but only for the same request:
 * reused with another strategy it is a 409 REQUEST_ID_REUSED, never the other strategy's success.
 */
export function hostedCloseStrategy(
  engine: TradingEngine,
  account: string,
  req: HostedClosePositionRequest,
): unknown {
  const mode = engine.mode();
  if (
    req.expected_mode !== mode.mode ||
    req.expected_balance_type !== mode.balance_type ||
    req.expected_mode_version !== mode.mode_version
  )
    throw new HttpError(MODE_SWITCH_STATUS, 'Server mode switch detected', {
      error_code: 'SERVER_MODE_SWITCH_DETECTED',
      ...mode,
    });
  // The snapshot already equals engine.mode() here; it is part of the request all the same.
  const request = JSON.stringify([
    req.strategy,
    req.expected_mode,
    req.expected_balance_type,
    req.expected_mode_version,
  ]);
  const answer = engine.rememberResponse(account, req.request_id, request, () => ({
    ...closeStrategy(engine, account, req),
    ...mode,
  }));
  if (!answer.ok) throw new HttpError(answer.status, answer.message, { error_code: 'REQUEST_ID_REUSED' });
  return answer.value;
}

/** positionsopen: the strategy's attributed net quantity; 0 proves zero exposure (spec §4.15). */
export function positionsOpen(
  engine: TradingEngine,
  account: string,
  req: PositionsOpenRequest,
): { status: 'success'; quantity: number } {
  return {
    status: 'success',
    quantity: engine.strategyQuantity(account, req.strategy, req.symbol, req.exchange, req.product),
  };
}

export interface AnalyzerAnswer {
  status: 'success';
  data: {
    analyze_mode: true;
    mode: 'analyze';
    total_logs: number;
    balance_type: 'sandbox';
    mode_version: number;
  };
}

/** §10 analyzer status plus the hosted snapshot; engine.mode() is the one source of the version. */
export function analyzerStatus(engine: TradingEngine, account: string): AnalyzerAnswer {
  const mode = engine.mode();
  return {
    status: 'success',
    data: {
      analyze_mode: true,
      mode: mode.mode,
      total_logs: engine.orders(account).length,
      balance_type: mode.balance_type,
      mode_version: mode.mode_version,
    },
  };
}
