// HTTP routes of the composite order operations. Each route validates with the contract schema
// (before auth, like upstream), resolves the key under its rate-limit bucket, then delegates to the
// operation modules; errors are HttpErrors rendered by the server.
//
// Decisions (beyond the spec, see gateway-behaviour §6, §7, §14):
// - smart order: C is the account's net position for (symbol, exchange, product), all strategies
//   (the broker position book has none); no-ops are 200 `{status:"success", message}`; pricetype is
//   honoured (Decision 4); an engine refusal is answered like placeorder's. As upstream, only filled
//   quantity counts, so a smart order repeated while a large MARKET order still fills can overshoot.
// - split: 200 with per-child status even if all fail; > 100 children is 400, nothing placed.
// - basket: BUY legs first, then SELL, results in placement order; top level always success.
// - cancel-all: every `open` and `trigger pending` order of the account, as upstream; the strategy
//   field is required but does not scope it (Decision 5).
// - closeposition: strategy-scoped MARKET counter-orders sized by eventual exposure (filled plus
//   working MARKET rests, so a repeated close never over-closes); nothing to close is HTTP 200 with
//   `code:"NO_STRATEGY_EXPOSURE"`; hosted snapshot mismatch is HTTP 409 SERVER_MODE_SWITCH_DETECTED
//   (checked before the request_id replay and never remembered).
// - positionsopen: the strategy's attributed quantity; hosted fields ignored.
// - analyzer: served here (the engine extension says so), total_logs = the account's orders today.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  ApiKeyRequest,
  BasketOrderRequest,
  CancelAllOrderRequest,
  ClosePositionRequest,
  HostedClosePositionRequest,
  PositionsOpenRequest,
  SmartOrderRequest,
  SplitOrderRequest,
} from '../../../contract/index.js';
import type { RateBucket, RouteKit, RoutePlugin } from '../route-kit.js';
import {
  analyzerStatus,
  cancelAllOrders,
  closeStrategy,
  hostedCloseStrategy,
  isHostedClose,
  positionsOpen,
} from '../../engine/composite-close.js';
import { basketOrder, smartOrder, splitOrder } from '../../engine/composite-orders.js';
import type { TradingEngine } from '../../engine/engine.js';

export interface CompositeRouteOptions {
  /** Serve POST /api/v1/analyzer here (default true); false when another module already does. */
  analyzer?: boolean;
}

export function compositeRoutes(engine: TradingEngine, options: CompositeRouteOptions = {}): RoutePlugin {
  return (app: FastifyInstance, kit: RouteKit) => {
    /** POST `path`: parse with `schema`, resolve the key at `bucket`'s rate, answer with `run`. */
    const operation = <S extends z.ZodType<{ apikey: string }>>(
      path: string,
      schema: S,
      bucket: RateBucket,
      run: (engine: TradingEngine, account: string, req: z.output<S>) => unknown,
    ): void => {
      app.post(path, async (request) => {
        const req = kit.parse(schema, request.body);
        return run(engine, kit.account(req.apikey, bucket, path), req);
      });
    };

    operation('/api/v1/placesmartorder', SmartOrderRequest, 'smart', smartOrder);
    operation('/api/v1/splitorder', SplitOrderRequest, 'api', splitOrder);
    operation('/api/v1/basketorder', BasketOrderRequest, 'api', basketOrder);
    operation('/api/v1/cancelallorder', CancelAllOrderRequest, 'api', cancelAllOrders);

    // One path, two variants: any hosted field makes the body hosted, and then all four are required.
    app.post('/api/v1/closeposition', async (request) => {
      if (isHostedClose(request.body)) {
        const req = kit.parse(HostedClosePositionRequest, request.body);
        return hostedCloseStrategy(engine, kit.account(req.apikey, 'api', '/api/v1/closeposition'), req);
      }
      const req = kit.parse(ClosePositionRequest, request.body);
      return closeStrategy(engine, kit.account(req.apikey, 'api', '/api/v1/closeposition'), req);
    });

    // Hosted snapshot fields, if sent, are ignored: the check is read-only (§14).
    operation('/api/v1/positionsopen', PositionsOpenRequest, 'api', positionsOpen);

    if (options.analyzer !== false) operation('/api/v1/analyzer', ApiKeyRequest, 'api', analyzerStatus);
  };
}
