// A feed `order_update` as an order-book row, so it goes through the same diff (and the same seen
// state) as a polled book: whichever of feed and poll sees a state first reports it, the other finds
// nothing new. The update has no timestamp or strategy upstream: they come from the order as last
// polled, else the time it arrived.
import type { OrderRecord, OrderSnapshot, WsOrderUpdate } from '../../contract/index.js';
import { formatIstDateTime } from '../../shared/format.js';

export function feedOrderRecord(
  u: WsOrderUpdate,
  known: OrderSnapshot | undefined,
  nowMs: number,
): OrderRecord {
  const row: OrderRecord = {
    orderid: u.orderid,
    symbol: u.symbol,
    exchange: u.exchange,
    action: u.action,
    quantity: u.quantity,
    price: u.price,
    trigger_price: u.trigger_price,
    pricetype: u.pricetype,
    product: u.product,
    order_status: u.order_status,
    filled_quantity: u.filled_quantity,
    pending_quantity: u.pending_quantity,
    average_price: u.average_price,
    timestamp: known?.timestamp ?? formatIstDateTime(nowMs, { zone: false }),
  };
  if (u.rejection_reason) row.rejection_reason = u.rejection_reason;
  if (known?.strategy) row.strategy = known.strategy;
  return row;
}
