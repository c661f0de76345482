// The bracket keeper against a paper gateway over HTTP, as the integration tests, the brackets
// stress suite and the brackets bench all drive it: its ports on a gateway client (each send
// recorded), the book as the desk's watcher hands it on, and an entry order.
import type { OrderRecord } from '../../src-main/contract/index.js';
import { sendResultOf, type ProtectivePorts } from '../../src-main/core/protection/index.js';
import { toSnapshot } from '../../src-main/core/watcher/index.js';
import type { GatewayClient } from '../../src-main/gateway/index.js';
import { engineExtension, type EngineExtensionOptions } from '../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../src-main/paper/engine/trading-engine.js';
import { startTestGateway, type EngineTestGateway, type TestGatewayOptions } from './paper-gateway.js';
import { useStarted } from './use-started.js';

/** The book as the desk's watcher hands it on: the keeper reads OrderSnapshot rows. */
export const snapshots = (rows: readonly OrderRecord[]) => rows.map(toSnapshot);

export interface RecordingPorts extends ProtectivePorts {
  /** Each send, in order: `place SL-M 10`, `modify LIMIT 10 @1234.5`, `cancel`. */
  sent: string[];
}

/** The keeper's ports on a gateway client, tagged with `strategy`. */
export function gatewayPorts(client: GatewayClient, strategy = 'bracket'): RecordingPorts {
  const sent: string[] = [];
  return {
    sent,
    async place(o) {
      sent.push(`place ${o.pricetype} ${o.quantity}`);
      return sendResultOf(await client.placeorder({ strategy, disclosed_quantity: 0, ...o }));
    },
    async modify(o) {
      sent.push(`modify ${o.pricetype} ${o.quantity} @${o.pricetype === 'SL-M' ? o.trigger_price : o.price}`);
      return sendResultOf(await client.modifyorder({ strategy, disclosed_quantity: 0, ...o }));
    },
    async cancel(orderid) {
      sent.push('cancel');
      const r = await client.cancelorder({ strategy, orderid });
      return sendResultOf(r.ok ? { ok: true, value: { orderid } } : r);
    },
  };
}

/** The gateway's order book (throws when it cannot be read). */
export async function orderRows(client: GatewayClient): Promise<OrderRecord[]> {
  const r = await client.orderbook();
  if (!r.ok) throw new Error(r.error.message);
  return r.value.data.orders;
}

export interface EntryOrder {
  symbol: string;
  quantity: number;
  exchange?: string;
  action?: 'BUY' | 'SELL';
  pricetype?: 'MARKET' | 'LIMIT' | 'SL' | 'SL-M';
  product?: 'MIS' | 'CNC' | 'NRML';
  price?: number;
  trigger_price?: number;
  strategy?: string;
}

/** Places an entry (a MIS BUY at the market unless told otherwise); its order id. */
export async function placeEntry(client: GatewayClient, e: EntryOrder): Promise<string> {
  const r = await client.placeorder({
    strategy: e.strategy ?? 'entry',
    symbol: e.symbol,
    exchange: e.exchange ?? 'NSE',
    action: e.action ?? 'BUY',
    quantity: e.quantity,
    pricetype: e.pricetype ?? 'MARKET',
    product: e.product ?? 'MIS',
    price: e.price ?? 0,
    trigger_price: e.trigger_price ?? 0,
    disclosed_quantity: 0,
  });
  if (!r.ok) throw new Error(`entry ${e.symbol}: ${r.error.message}`);
  return r.value.orderid;
}

/** A test gateway whose order engine is built with `engine` (its limitFills, capital, ...). */
export async function startBracketGateway(
  engine: Omit<EngineExtensionOptions, 'onEngine'> = {},
  opts: Omit<TestGatewayOptions, 'extensions'> = {},
): Promise<EngineTestGateway> {
  let built: PaperTradingEngine | undefined;
  const gw = await startTestGateway({
    ...opts,
    extensions: [engineExtension({ ...engine, onEngine: (e) => (built = e) })],
  });
  if (!built) throw new Error('the engine extension did not hand over its engine');
  return { ...gw, engine: built };
}

/** startBracketGateway before the tests of the calling file (or describe block), stopped after them. */
export function useBracketGateway(engine: Omit<EngineExtensionOptions, 'onEngine'> = {}): EngineTestGateway {
  return useStarted(() => startBracketGateway(engine));
}
