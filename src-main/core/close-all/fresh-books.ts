// The gateway's books read now, never the watcher's last poll: an order placed a moment ago is in
// the gateway's book before any poll has seen it. Working orders of a strategy, and what a strategy
// still holds per instrument.
import {
  OpenPositionRequest,
  errorMessage,
  type OrderRecord,
  type PositionRecord,
} from '../../contract/index.js';
import { formatQty } from '../../shared/format.js';
import type { GatewayClient } from '../../gateway/index.js';
import { isActive } from '../watcher/index.js';

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

/** A working order (open, trigger pending) as the order book states it now. */
export interface WorkingOrder {
  orderid: string;
  symbol: string;
  status: string;
  /** The strategy the gateway attributes it to; absent where the gateway does not say. */
  strategy?: string;
}

/**
 * The strategy's own orders: those the gateway attributes to it, and those it attributes to none
 * (a gateway without attribution: they may well be its own, and one left working could reopen a
 * closed position). Without a strategy, every order.
 */
export function ownedBy(strategy: string | undefined): (o: { strategy?: string | undefined }) => boolean {
  return (o) => !strategy || !o.strategy || o.strategy === strategy;
}

function toWorking(o: OrderRecord): WorkingOrder {
  return {
    orderid: o.orderid,
    symbol: o.symbol,
    status: o.order_status,
    ...(o.strategy ? { strategy: o.strategy } : {}),
  };
}

/** The working orders `owned` selects, from the order book read now. */
export async function readWorking(
  client: GatewayClient,
  owned: (o: OrderRecord) => boolean,
): Promise<Read<WorkingOrder[]>> {
  try {
    const r = await client.orderbook();
    if (!r.ok) return { ok: false, message: `order book not read: ${r.error.message}` };
    return {
      ok: true,
      value: r.value.data.orders.filter((o) => isActive(o.order_status) && owned(o)).map(toWorking),
    };
  } catch (err) {
    return { ok: false, message: `order book not read: ${errorMessage(err)}` };
  }
}

/** One instrument the strategy still holds: its exposure, or the account's where the gateway cannot say. */
export interface OpenExposure {
  symbol: string;
  exchange: string;
  product: string;
  quantity: number;
  /** `strategy`: the strategy's own exposure (positionsopen); `account`: the position book's net. */
  by: 'strategy' | 'account';
}

export interface Exposures {
  open: OpenExposure[];
  /** Whether every row was judged by the strategy's own exposure (else the account's, for some). */
  byStrategyOnly: boolean;
}

/**
 * Every row of the position book (flat ones too: a strategy can hold what another offsets to an
 * account-wide 0), judged by the strategy's exposure where the gateway reports it (`positionsopen`),
 * else by the account's net quantity. Any read that fails makes the whole answer a failure: an
 * unread instrument is never taken for flat.
 */
export async function readExposures(client: GatewayClient, strategy: string): Promise<Read<Exposures>> {
  let rows: PositionRecord[];
  try {
    const book = await client.positionbook();
    if (!book.ok) return { ok: false, message: `position book not read: ${book.error.message}` };
    rows = book.value.data;
  } catch (err) {
    return { ok: false, message: `position book not read: ${errorMessage(err)}` };
  }
  const open: OpenExposure[] = [];
  let byStrategyOnly = true;
  for (const row of rows) {
    const account = { symbol: row.symbol, exchange: row.exchange, product: row.product };
    const query = OpenPositionRequest.omit({ apikey: true }).safeParse({ ...account, strategy });
    let quantity = row.quantity;
    let by: OpenExposure['by'] = 'account';
    if (query.success) {
      const r = await client.positionsopen(query.data);
      if (r.ok) {
        quantity = r.value.quantity;
        by = 'strategy';
      } else if (r.error.kind !== 'not_offered')
        return { ok: false, message: `${row.symbol}: exposure not read: ${r.error.message}` };
    }
    if (by === 'account') byStrategyOnly = false;
    if (quantity !== 0) open.push({ ...account, quantity, by });
  }
  return { ok: true, value: { open, byStrategyOnly } };
}

/** "SBIN +10" for the step's detail. */
export function describeExposure(e: OpenExposure): string {
  return `${e.symbol} ${e.quantity > 0 ? '+' : ''}${formatQty(e.quantity)}`;
}
