// The read channels: books, market data, order status and the margin orders need, straight to the active profile's gateway
// client. Books answer the same view models as the watcher's `books.*` events; positions are marked
// at the last prices the watcher holds, so reading them costs no quote request.
import type { IpcResult, SymbolInfo, SymbolRecord } from '../../contract/index.js';
import type { GatewayResult } from '../../gateway/index.js';
import {
  toFundsView,
  toHoldingsView,
  toOrdersView,
  toPositionsView,
  toSnapshot,
  toTradesView,
} from '../watcher/index.js';
import { readOptionGreeks } from './greek-reader.js';
import { toMarginEstimate } from './margin-view.js';
import { fromGateway, okResult } from './results.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';

export type ReadChannels =
  | 'books.orders'
  | 'books.trades'
  | 'books.positions'
  | 'books.holdings'
  | 'books.funds'
  | 'books.positionsOpen'
  | 'orders.status'
  | 'orders.openPosition'
  | 'orders.margin'
  | 'market.depth'
  | 'market.search'
  | 'market.expiry'
  | 'market.quotes'
  | 'market.ticker'
  | 'market.symbol'
  | 'market.multiquotes'
  | 'market.intervals'
  | 'market.optionChain'
  | 'market.optionGreeks';

/** A gateway answer turned into a view, errors passed through as they are. */
function viewOf<T, V>(r: GatewayResult<T>, view: (value: T) => V): IpcResult<V> {
  return r.ok ? okResult(view(r.value)) : fromGateway(r);
}

function toSymbolInfo(r: SymbolRecord): SymbolInfo {
  return {
    symbol: r.symbol,
    exchange: r.exchange,
    name: r.name,
    instrumentType: r.instrumenttype,
    token: r.token,
    expiry: r.expiry,
    strike: r.strike > 0 ? r.strike : null,
    lotSize: r.lotsize,
    tickSize: r.tick_size,
    // Gateways without freeze limits leave it out or send 0: neither is a limit.
    freezeQuantity: r.freeze_qty !== undefined && r.freeze_qty > 0 ? r.freeze_qty : null,
  };
}

export function readHandlers(d: { session(): Session }): Pick<Handlers, ReadChannels> {
  const client = () => d.session().client;
  /** Strategy-scoped reads default to the profile's strategy, as orders do. */
  const withStrategy = <I extends { strategy?: string | undefined }>(input: I) => ({
    ...input,
    strategy: input.strategy ?? d.session().profile.strategy,
  });

  return {
    'books.orders': async () => viewOf(await client().orderbook(), (r) => toOrdersView(r.data)),
    'books.trades': async () => viewOf(await client().tradebook(), (r) => toTradesView(r.data)),
    async 'books.positions'() {
      const s = d.session();
      return viewOf(await s.client.positionbook(), (r) => toPositionsView(r.data, s.watcher.lastPrices()));
    },
    'books.holdings': async () => viewOf(await client().holdings(), (r) => toHoldingsView(r.data)),
    'books.funds': async () => viewOf(await client().funds(), (r) => toFundsView(r.data)),
    'books.positionsOpen': async (input) => fromGateway(await client().positionsopen(withStrategy(input))),

    'orders.status': async (input) =>
      viewOf(await client().orderstatus(withStrategy(input)), (r) => toSnapshot(r.data)),
    'orders.openPosition': async (input) => fromGateway(await client().openposition(withStrategy(input))),
    async 'orders.margin'(input) {
      const s = d.session();
      return viewOf(await s.client.margin(input), (r) => toMarginEstimate(r.data, s.profile.kind));
    },

    'market.depth': async (input) => fromGateway(await client().depth(input)),
    'market.search': async (input) => fromGateway(await client().search(input)),
    'market.expiry': async (input) => fromGateway(await client().expiry(input)),
    'market.quotes': async (input) => fromGateway(await client().quotes(input)),
    'market.ticker': async (input) => fromGateway(await client().ticker(input)),
    'market.symbol': async (input) => viewOf(await client().symbol(input), (r) => toSymbolInfo(r.data)),
    'market.multiquotes': async (input) => fromGateway(await client().multiquotes(input)),
    'market.intervals': async () => fromGateway(await client().intervals()),
    'market.optionChain': async (input) => fromGateway(await client().optionchain(input)),
    'market.optionGreeks': (input) => readOptionGreeks(client(), input),
  };
}
