// HTTP routes of single orders and account reads (spec §4.2-§4.9, §4.13, §4.14), over the engine.
// Each route parses with the contract schema, resolves the key under its rate bucket, and answers
// with the contract's response type; engine refusals become HttpErrors (with the order id when the
// refused order was recorded). Every answer carries `mode: "analyze"`, as the live sandbox's do.
import {
  ApiKeyRequest,
  CancelOrderRequest,
  ModifyOrderRequest,
  OpenPositionRequest,
  OrderStatusRequest,
  PlaceOrderRequest,
  type FundsResponse,
  type HoldingsResponse,
  type OpenPositionResponse,
  type OrderIdResponse,
  type OrderStatusResponse,
  type PositionBookResponse,
  type TradeBookResponse,
} from '../../../contract/index.js';
import { HttpError, type RoutePlugin } from '../route-kit.js';
import type { EngineResult, TradingEngine } from '../../engine/engine.js';
import {
  ANALYZE,
  fundsRecord,
  holdingRecord,
  holdingStatistics,
  OrderBookAnswers,
  orderRecord,
  positionBook,
  tradeRecord,
} from '../order-format.js';
import { normaliseSymbol } from '../../engine/validation.js';

function accepted<T extends { orderid: string } | { order: { orderid: string } }>(
  result: EngineResult<T>,
): T {
  if (result.ok) return result.value;
  throw new HttpError(result.status, result.message, result.orderid ? { orderid: result.orderid } : {});
}

export function orderRoutes(engine: TradingEngine): RoutePlugin {
  const books = new OrderBookAnswers();
  return (app, kit) => {
    app.post('/api/v1/placeorder', async (request): Promise<OrderIdResponse> => {
      const req = kit.parse(PlaceOrderRequest, request.body);
      const account = kit.account(req.apikey, 'order', '/api/v1/placeorder');
      const order = accepted(
        engine.placeOrder(account, {
          strategy: req.strategy,
          exchange: req.exchange,
          symbol: req.symbol,
          action: req.action,
          quantity: req.quantity,
          pricetype: req.pricetype,
          product: req.product,
          price: req.price,
          trigger_price: req.trigger_price,
          disclosed_quantity: req.disclosed_quantity,
        }),
      );
      return { status: 'success', orderid: order.orderid, mode: ANALYZE };
    });

    app.post('/api/v1/modifyorder', async (request): Promise<OrderIdResponse> => {
      const { apikey, orderid, ...changes } = kit.parse(ModifyOrderRequest, request.body);
      const account = kit.account(apikey, 'order', '/api/v1/modifyorder');
      const { order, changed } = accepted(engine.modifyOrder(account, orderid, changes));
      // Never report a change that did not happen.
      const message =
        changed.length > 0
          ? 'Order modified successfully'
          : `No change: order ${order.orderid} already has these values`;
      return { status: 'success', orderid: order.orderid, message, mode: ANALYZE };
    });

    app.post('/api/v1/cancelorder', async (request): Promise<OrderIdResponse> => {
      const req = kit.parse(CancelOrderRequest, request.body);
      const account = kit.account(req.apikey, 'order', '/api/v1/cancelorder');
      const order = accepted(engine.cancelOrder(account, req.orderid));
      return {
        status: 'success',
        orderid: order.orderid,
        message: 'Order cancelled successfully',
        mode: ANALYZE,
      };
    });

    app.post('/api/v1/orderbook', async (request, reply): Promise<Buffer> => {
      const req = kit.parse(ApiKeyRequest, request.body);
      const account = kit.account(req.apikey, 'api', '/api/v1/orderbook');
      // Already JSON (an OrderBookResponse, see orderBookJson): sent as is, not serialised again.
      reply.type('application/json; charset=utf-8');
      return books.body(account, engine.orders(account));
    });

    app.post('/api/v1/tradebook', async (request): Promise<TradeBookResponse> => {
      const req = kit.parse(ApiKeyRequest, request.body);
      return {
        status: 'success',
        data: engine.trades(kit.account(req.apikey, 'api', '/api/v1/tradebook')).map(tradeRecord),
        mode: ANALYZE,
      };
    });

    app.post('/api/v1/positionbook', async (request): Promise<PositionBookResponse> => {
      const req = kit.parse(ApiKeyRequest, request.body);
      return positionBook(engine.positions(kit.account(req.apikey, 'api', '/api/v1/positionbook')));
    });

    app.post('/api/v1/holdings', async (request): Promise<HoldingsResponse> => {
      const req = kit.parse(ApiKeyRequest, request.body);
      const holdings = engine.holdings(kit.account(req.apikey, 'api', '/api/v1/holdings'));
      return {
        status: 'success',
        data: { holdings: holdings.map(holdingRecord), statistics: holdingStatistics(holdings) },
        mode: ANALYZE,
      };
    });

    app.post('/api/v1/funds', async (request): Promise<FundsResponse> => {
      const req = kit.parse(ApiKeyRequest, request.body);
      return {
        status: 'success',
        data: fundsRecord(engine.funds(kit.account(req.apikey, 'api', '/api/v1/funds'))),
        mode: ANALYZE,
      };
    });

    app.post('/api/v1/orderstatus', async (request): Promise<OrderStatusResponse> => {
      const req = kit.parse(OrderStatusRequest, request.body);
      const order = engine.order(kit.account(req.apikey, 'api', '/api/v1/orderstatus'), req.orderid);
      if (!order) throw new HttpError(404, `Order ${req.orderid} not found`);
      return { status: 'success', data: orderRecord(order), mode: ANALYZE };
    });

    app.post('/api/v1/openposition', async (request): Promise<OpenPositionResponse> => {
      const req = kit.parse(OpenPositionRequest, request.body);
      const account = kit.account(req.apikey, 'api', '/api/v1/openposition');
      const symbol = normaliseSymbol(req.symbol);
      const row = engine
        .positions(account)
        .find((p) => p.symbol === symbol && p.exchange === req.exchange && p.product === req.product);
      return { status: 'success', quantity: row?.quantity ?? 0, mode: ANALYZE };
    });
  };
}
