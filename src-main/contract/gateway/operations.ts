// One row per gateway operation: its path, request schema and response schema. The paper gateway
// serves these paths and the client calls them, so both read the same table.
import type { z } from 'zod';
import * as A from './account-extra.js';
import * as B from './books.js';
import * as D from './market-data.js';
import * as G from './gtt.js';
import * as X from './options.js';
import * as O from './orders.js';
import * as R from './reference.js';
import { ApiKeyRequest } from './primitives.js';

interface Operation<Req extends z.ZodType, Res extends z.ZodType> {
  path: string;
  request: Req;
  response: Res;
  /** Order mutations are never retried and are ranked ahead of reads (architecture rules 4 and 5). */
  kind: 'mutation' | 'read';
  /** In the spec (§4.1); the others are the real gateway's and may answer 404 elsewhere. */
  inSpec: boolean;
}
function op<Req extends z.ZodType, Res extends z.ZodType>(
  path: string,
  request: Req,
  response: Res,
  kind: 'mutation' | 'read',
  inSpec = true,
): Operation<Req, Res> {
  return { path, request, response, kind, inSpec };
}

export const OPERATIONS = {
  orderbook: op('/api/v1/orderbook', ApiKeyRequest, B.OrderBookResponse, 'read'),
  tradebook: op('/api/v1/tradebook', ApiKeyRequest, B.TradeBookResponse, 'read'),
  holdings: op('/api/v1/holdings', ApiKeyRequest, B.HoldingsResponse, 'read'),
  positionbook: op('/api/v1/positionbook', ApiKeyRequest, B.PositionBookResponse, 'read'),
  funds: op('/api/v1/funds', ApiKeyRequest, B.FundsResponse, 'read'),
  orderstatus: op('/api/v1/orderstatus', O.OrderStatusRequest, B.OrderStatusResponse, 'read'),
  openposition: op('/api/v1/openposition', O.OpenPositionRequest, O.OpenPositionResponse, 'read'),
  positionsopen: op('/api/v1/positionsopen', O.PositionsOpenRequest, O.PositionsOpenResponse, 'read', false),
  placeorder: op('/api/v1/placeorder', O.PlaceOrderRequest, O.OrderIdResponse, 'mutation'),
  splitorder: op('/api/v1/splitorder', O.SplitOrderRequest, O.SplitOrderResponse, 'mutation'),
  basketorder: op('/api/v1/basketorder', O.BasketOrderRequest, O.BasketOrderResponse, 'mutation'),
  placesmartorder: op('/api/v1/placesmartorder', O.SmartOrderRequest, O.SmartOrderResponse, 'mutation'),
  modifyorder: op('/api/v1/modifyorder', O.ModifyOrderRequest, O.OrderIdResponse, 'mutation'),
  cancelorder: op('/api/v1/cancelorder', O.CancelOrderRequest, O.OrderIdResponse, 'mutation'),
  cancelallorder: op('/api/v1/cancelallorder', O.CancelAllOrderRequest, O.CancelAllOrderResponse, 'mutation'),
  closeposition: op('/api/v1/closeposition', O.ClosePositionRequest, O.ClosePositionResponse, 'mutation'),
  // GTT orders (the live server's; gateway-behaviour "Live server, recorded").
  placegttorder: op('/api/v1/placegttorder', G.PlaceGttOrderRequest, G.GttIdResponse, 'mutation', false),
  modifygttorder: op('/api/v1/modifygttorder', G.ModifyGttOrderRequest, G.GttIdResponse, 'mutation', false),
  cancelgttorder: op('/api/v1/cancelgttorder', G.CancelGttOrderRequest, G.GttIdResponse, 'mutation', false),
  gttorderbook: op('/api/v1/gttorderbook', G.GttOrderBookRequest, G.GttOrderBookResponse, 'read', false),
  closepositionHosted: op(
    '/api/v1/closeposition',
    O.HostedClosePositionRequest,
    O.ClosePositionResponse,
    'mutation',
    false,
  ),
  depth: op('/api/v1/depth', D.DepthRequest, D.DepthResponse, 'read'),
  expiry: op('/api/v1/expiry', D.ExpiryRequest, D.ExpiryResponse, 'read'),
  search: op('/api/v1/search', D.SearchRequest, D.SearchResponse, 'read'),
  // ticker is a GET with the key in a header; its query is D.TickerQuery.
  ticker: op('/api/v1/ticker', D.TickerQuery, D.TickerResponse, 'read'),
  ping: op('/api/v1/ping', ApiKeyRequest, D.PingResponse, 'read', false),
  quotes: op('/api/v1/quotes', D.QuotesRequest, D.QuotesResponse, 'read', false),
  multiquotes: op('/api/v1/multiquotes', D.MultiQuotesRequest, D.MultiQuotesResponse, 'read', false),
  history: op('/api/v1/history', D.HistoryRequest, D.HistoryResponse, 'read', false),
  intervals: op('/api/v1/intervals', ApiKeyRequest, D.IntervalsResponse, 'read', false),
  symbol: op('/api/v1/symbol', D.SymbolRequest, D.SymbolResponse, 'read', false),
  analyzer: op('/api/v1/analyzer', ApiKeyRequest, B.AnalyzerResponse, 'read', false),
  // The real gateway's options and account extras (gateway-behaviour §3.9, §3.10, §5.6, §10).
  margin: op('/api/v1/margin', A.MarginRequest, A.MarginResponse, 'read', false),
  pnlsymbols: op('/api/v1/pnl/symbols', ApiKeyRequest, A.PnlSymbolsResponse, 'read', false),
  optionsymbol: op('/api/v1/optionsymbol', X.OptionSymbolRequest, X.OptionSymbolResponse, 'read', false),
  optionchain: op('/api/v1/optionchain', X.OptionChainRequest, X.OptionChainResponse, 'read', false),
  optiongreeks: op('/api/v1/optiongreeks', X.OptionGreeksRequest, X.OptionGreeksResponse, 'read', false),
  multioptiongreeks: op(
    '/api/v1/multioptiongreeks',
    X.MultiOptionGreeksRequest,
    X.MultiOptionGreeksResponse,
    'read',
    false,
  ),
  syntheticfuture: op(
    '/api/v1/syntheticfuture',
    X.SyntheticFutureRequest,
    X.SyntheticFutureResponse,
    'read',
    false,
  ),
  optionsorder: op('/api/v1/optionsorder', X.OptionsOrderRequest, X.OptionsOrderResponse, 'mutation', false),
  optionsmultiorder: op(
    '/api/v1/optionsmultiorder',
    X.OptionsMultiOrderRequest,
    X.OptionsMultiOrderResponse,
    'mutation',
    false,
  ),
  // instruments is a GET with the key in the query; its query is R.InstrumentsQuery.
  instruments: op('/api/v1/instruments', R.InstrumentsQuery, R.InstrumentsResponse, 'read', false),
  marketholidays: op(
    '/api/v1/market/holidays',
    R.MarketHolidaysRequest,
    R.MarketHolidaysResponse,
    'read',
    false,
  ),
  markettimings: op('/api/v1/market/timings', R.MarketTimingsRequest, R.MarketTimingsResponse, 'read', false),
  analyzertoggle: op(
    '/api/v1/analyzer/toggle',
    R.AnalyzerToggleRequest,
    R.AnalyzerToggleResponse,
    'read',
    false,
  ),
} as const;
export type OperationName = keyof typeof OPERATIONS;
export type RequestOf<N extends OperationName> = z.input<(typeof OPERATIONS)[N]['request']>;
export type ResponseOf<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['response']>;
