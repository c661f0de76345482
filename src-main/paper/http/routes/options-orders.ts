// optionsorder and optionsmultiorder (gateway-behaviour §3.9): resolve the offset per §3.10, then
// place through the engine like placeorder (split children when splitsize > 0). Multi-leg: every leg
// is resolved first; BUY legs are placed before SELL legs (their margin is smaller and hedges the
// shorts, as upstream orders them) and results are reported by leg number. A failed leg carries its
// message; the others are still placed. As the live sandbox, both answers carry top-level
// `mode: "analyze"`, and so does each placed multi-order leg (a failed one does not).
import {
  OptionsMultiOrderRequest,
  OptionsOrderRequest,
  type OptionsLegResult,
  type OptionsMultiOrderResponse,
  type OptionsOrderResponse,
} from '../../../contract/index.js';
import type { OrderInput, TradingEngine } from '../../engine/engine.js';
import { refusal } from '../../engine/composite-orders.js';
import { planSplit, SplitPlanError } from '../../../shared/split-plan.js';
import { optionsExchange, resolveChain, resolveInChain, type ResolvedOption } from '../../options/resolve.js';
import { ANALYZE } from '../order-format.js';
import { HttpError, type RoutePlugin } from '../route-kit.js';
import { orRefuse, resolveContext, type OptionRoutesDeps } from './options.js';

interface LegPricing {
  pricetype?: OrderInput['pricetype'] | undefined;
  product?: 'MIS' | 'NRML' | undefined;
  price?: number | undefined;
  trigger_price?: number | undefined;
}

/** The engine's order input for a resolved option, with upstream's defaults (MARKET, MIS). */
function orderInput(
  strategy: string,
  r: ResolvedOption,
  action: OrderInput['action'],
  quantity: number,
  p: LegPricing,
  disclosed = 0,
): OrderInput {
  return {
    strategy,
    exchange: r.optExchange,
    symbol: r.option.symbol,
    action,
    quantity,
    pricetype: p.pricetype ?? 'MARKET',
    product: p.product ?? 'MIS',
    price: p.price ?? 0,
    trigger_price: p.trigger_price ?? 0,
    disclosed_quantity: disclosed,
  };
}

interface SplitChild {
  order_num: number;
  orderid?: string;
  quantity: number;
  status: 'success' | 'error';
  message?: string;
}

/** Split children of `base` (planSplit's sizes), each placed on its own; a bad plan is a 400. */
function placeSplit(
  engine: TradingEngine,
  account: string,
  base: OrderInput,
  splitsize: number,
): SplitChild[] {
  let plan: number[];
  try {
    plan = planSplit(base.quantity, splitsize);
  } catch (err) {
    if (err instanceof SplitPlanError) throw new HttpError(400, err.message);
    throw err;
  }
  return plan.map((quantity, i): SplitChild => {
    const placed = engine.placeOrder(account, { ...base, quantity, disclosed_quantity: 0 });
    return placed.ok
      ? { order_num: i + 1, orderid: placed.value.orderid, quantity, status: 'success' }
      : { order_num: i + 1, quantity, status: 'error', message: placed.message };
  });
}

export function optionOrderRoutes(engine: TradingEngine, deps: OptionRoutesDeps): RoutePlugin {
  return (app, kit) => {
    app.post('/api/v1/optionsorder', async (request): Promise<OptionsOrderResponse> => {
      const req = kit.parse(OptionsOrderRequest, request.body);
      const account = kit.account(req.apikey, 'order', '/api/v1/optionsorder');
      const ctx = resolveContext(deps);
      const chain = orRefuse(resolveChain(ctx, req));
      const r = orRefuse(resolveInChain(ctx, chain, req.offset, req.option_type, req.strike_int));
      const answer = {
        status: 'success' as const,
        symbol: r.option.symbol,
        exchange: r.optExchange,
        offset: req.offset,
        option_type: req.option_type,
        // Upstream names the underlying with its expiry here (NIFTY25AUG26FUT), unlike multi-order.
        underlying: `${r.base}${r.expiryCode}FUT`,
        underlying_ltp: r.underlyingLtp,
        mode: ANALYZE,
      };
      const splitsize = req.splitsize ?? 0;
      if (splitsize === 0) {
        const placed = engine.placeOrder(
          account,
          orderInput(req.strategy, r, req.action, req.quantity, req, req.disclosed_quantity ?? 0),
        );
        if (!placed.ok) throw refusal(placed);
        return { ...answer, orderid: placed.value.orderid };
      }
      const base = orderInput(req.strategy, r, req.action, req.quantity, req);
      const results = engine.transaction(() => placeSplit(engine, account, base, splitsize));
      // Plain records for the answer's loose row type; the live server names the split beside them.
      return {
        ...answer,
        results: results.map((c) => ({ ...c })),
        split_size: splitsize,
        total_quantity: req.quantity,
      };
    });

    app.post('/api/v1/optionsmultiorder', async (request): Promise<OptionsMultiOrderResponse> => {
      const req = kit.parse(OptionsMultiOrderRequest, request.body);
      const account = kit.account(req.apikey, 'order', '/api/v1/optionsmultiorder');
      const ctx = resolveContext(deps);
      // The common underlying must resolve (its quote heads the answer); legs may name their expiry.
      const common = resolveChain(ctx, { ...req, expiry_date: req.expiry_date ?? req.legs[0]?.expiry_date });
      const head = orRefuse(common);
      // The live server's leg shape: its exchange and product (MIS when not given), and `strike: null`.
      const results: OptionsLegResult[] = req.legs.map((leg, i) => ({
        leg: i + 1,
        action: leg.action,
        exchange: optionsExchange(req.exchange),
        offset: leg.offset,
        option_type: leg.option_type,
        product: leg.product ?? 'MIS',
        strike: null,
        status: 'error',
      }));
      const resolved = req.legs.map((leg) => {
        const chain = leg.expiry_date ? resolveChain(ctx, { ...req, expiry_date: leg.expiry_date }) : common;
        return chain.ok
          ? resolveInChain(ctx, chain.value, leg.offset, leg.option_type, req.strike_int)
          : chain;
      });
      const order = req.legs.map((_, i) => i);
      order.sort((a, b) => Number(req.legs[a]?.action === 'SELL') - Number(req.legs[b]?.action === 'SELL'));
      engine.transaction(() => {
        for (const i of order) {
          const leg = req.legs[i];
          const r = resolved[i];
          const out = results[i];
          if (!leg || !r || !out) continue;
          if (!r.ok) {
            out.message = r.message;
            continue;
          }
          out.symbol = r.value.option.symbol;
          out.exchange = r.value.optExchange;
          const input = orderInput(req.strategy, r.value, leg.action, leg.quantity, leg);
          if ((leg.splitsize ?? 0) > 0) {
            // A split leg reports its children; it succeeded when every child was placed.
            let children: SplitChild[];
            try {
              children = placeSplit(engine, account, input, leg.splitsize ?? 0);
            } catch (err) {
              if (!(err instanceof HttpError)) throw err;
              out.message = err.message;
              continue;
            }
            out.results = children;
            out.mode = ANALYZE;
            const failed = children.find((c) => c.status === 'error');
            if (failed) out.message = failed.message;
            else out.status = 'success';
            continue;
          }
          const placed = engine.placeOrder(account, input);
          if (placed.ok) {
            out.status = 'success';
            out.orderid = placed.value.orderid;
            out.mode = ANALYZE;
          } else {
            out.message = placed.message;
          }
        }
      });
      return {
        status: 'success',
        underlying: head.ref.base,
        underlying_ltp: head.underlyingLtp,
        results,
        mode: ANALYZE,
      };
    });
  };
}
