// The exactly-once audit: what the core told the desk (orders.* events, fill notifications) against
// what the gateway's own books say happened (order book statuses, trade book rows).
import { OrderBookResponse, TradeBookResponse } from '../../src-main/contract/gateway/index.js';
import type { DeskSession } from './desk-session.js';
import type { SuiteContext } from './suite.js';

export interface FillAudit {
  tradeRows: number;
  fillEvents: number;
  /** Orders complete in the gateway's book. */
  completeOrders: number;
  /** Fill events beyond the first for an order. */
  duplicateFills: number;
  /** Complete orders with no fill event. */
  missingFills: number;
  cancelledOrders: number;
  cancelEvents: number;
  duplicateCancels: number;
  missingCancels: number;
  fillNotifications: number;
  duplicateNotifications: number;
}

function countBy(ids: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
}

export async function auditFills(
  s: Pick<DeskSession, 'gatewayApi' | 'events' | 'notifications'>,
): Promise<FillAudit> {
  const orders = OrderBookResponse.parse(await s.gatewayApi('orderbook')).data.orders;
  const trades = TradeBookResponse.parse(await s.gatewayApi('tradebook')).data;
  const idsOf = (name: string) => s.events.filter((e) => e.name === name).map((e) => e.orderid);
  const fills = countBy(idsOf('orders.filled'));
  const cancels = countBy(idsOf('orders.cancelled'));
  const complete = orders.filter((o) => o.order_status === 'complete').map((o) => o.orderid);
  const cancelled = orders.filter((o) => o.order_status === 'cancelled').map((o) => o.orderid);
  const over = (m: Map<string, number>) => [...m.values()].reduce((a, n) => a + Math.max(0, n - 1), 0);
  const notified = countBy(
    s.notifications.filter((n) => n.kind === 'fill' && n.orderid).map((n) => n.orderid!),
  );
  return {
    tradeRows: trades.length,
    fillEvents: idsOf('orders.filled').length + idsOf('orders.partial').length,
    completeOrders: complete.length,
    duplicateFills: over(fills),
    missingFills: complete.filter((id) => !fills.has(id)).length,
    cancelledOrders: cancelled.length,
    cancelEvents: idsOf('orders.cancelled').length,
    duplicateCancels: over(cancels),
    missingCancels: cancelled.filter((id) => !cancels.has(id)).length,
    fillNotifications: [...notified.values()].reduce((a, n) => a + n, 0),
    duplicateNotifications: over(notified),
  };
}

/** The fill figures every audited run reports: expected against delivered, repeated and missing. */
export function fillFigures(ctx: Pick<SuiteContext, 'figure'>, audit: FillAudit): void {
  ctx.figure('fill events expected (trade rows) / delivered', `${audit.tradeRows} / ${audit.fillEvents}`);
  ctx.figure('duplicate / missing fill events', `${audit.duplicateFills} / ${audit.missingFills}`);
}

/** Each fill told exactly once (`when` names the span: " across the restart") and one event per trade row. */
export function fillChecks(ctx: Pick<SuiteContext, 'check'>, audit: FillAudit, when = ''): void {
  ctx.check(
    `every fill told exactly once${when}`,
    audit.duplicateFills === 0 && audit.missingFills === 0,
    `${audit.duplicateFills} repeated, ${audit.missingFills} missing`,
  );
  ctx.check(
    'fill events equal the trade book',
    audit.fillEvents === audit.tradeRows,
    `${audit.fillEvents} events, ${audit.tradeRows} trades`,
  );
}
