// The ticket mounted in a mode, as the mode tests use it: a paper desk with SBIN, NIFTY futures and
// INFY, the books and the alert log in context, the mode remembered in memory, and the preview channels
// answered by the core's own preview functions (src-main/core/previews, over the rules the paper
// gateway fills by), so what the ticket shows is what those rules decide.
import { fireEvent, render } from '@testing-library/svelte';
import { vi } from 'vitest';
import type { OrderSnapshot, OrdersView, SmartOrderIpcInput, SymbolInfo } from '@contract';
import { smartPreview, splitPreview } from '../../../src-main/core/previews/index.js';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ALERT_LOG, BOOKS, TICKET_MODES } from '../../../src-renderer/src/state/context';
import { TicketModes, type TicketMode } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { deskFixture, settle, type FixtureOptions } from '../../support/component/desk-fixture';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';
import { snapshot } from '../../support/component/session';

export const INFY: SymbolInfo = { ...SBIN, symbol: 'INFY', name: 'INFOSYS', token: '2' };

export function quote(ltp: number) {
  return { ask: ltp, bid: ltp, high: ltp, low: ltp, ltp, open: ltp, prev_close: ltp, volume: 0 };
}

export function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
}

export interface MountOptions extends FixtureOptions {
  mode?: TicketMode;
  open?: typeof SBIN;
  /** The signed net position the fake core reads for the smart preview. */
  position?: number;
  orders?: OrderSnapshot[];
}

/** Previews the mounted ticket's fake core has answered, and how many a test has waited for. */
let previewsAnswered = 0;
let previewsSeen = 0;

export async function mount(o: MountOptions = {}) {
  const f = deskFixture({ instruments: [SBIN, NIFTY_FUT, INFY], ...o });
  // The paper profile: the basket's margin is the paper leverage estimate there.
  f.desk.profile = snapshot().profile;
  const storage = memoryStorage();
  const modes = new TicketModes(f.bridge, storage);
  if (o.mode) modes.set(o.mode);
  const books = new BooksState(f.bridge);
  if (o.orders) books.orders = ordersView(o.orders);
  const alerts = new AlertLog(f.bridge);
  f.context.set(TICKET_MODES, modes);
  f.context.set(BOOKS, books);
  f.context.set(ALERT_LOG, alerts);
  let position = o.position ?? 0;
  f.bridge
    .answer('orders.previewSmart', (input) => {
      previewsAnswered++;
      return { ok: true, value: smartPreview(input as SmartOrderIpcInput, position) };
    })
    .answer('orders.previewSplit', (input) => {
      previewsAnswered++;
      const r = splitPreview(input as Parameters<typeof splitPreview>[0]);
      return r.ok ? r : { ok: false, error: { kind: 'invalid_input', message: r.message } };
    });
  const view = render(Ticket, { context: f.context });
  const inst = o.open ?? SBIN;
  await f.ticket.open('BUY', { symbol: inst.symbol, exchange: inst.exchange }, { lastPrice: 905.3 });
  await settle();
  previewsSeen = previewsAnswered;
  return { ...f, modes, books, alerts, storage, view, setPosition: (n: number) => (position = n) };
}

export function ordersView(orders: OrderSnapshot[]): OrdersView {
  return {
    orders,
    statistics: {
      totalBuyOrders: 0,
      totalSellOrders: 0,
      totalCompletedOrders: 0,
      totalOpenOrders: orders.length,
      totalRejectedOrders: 0,
    },
  };
}

export function working(orderid: string, quantity: number, action = 'BUY'): OrderSnapshot {
  return {
    orderid,
    symbol: 'SBIN',
    exchange: 'NSE',
    action,
    product: 'CNC',
    pricetype: 'LIMIT',
    quantity,
    filledQuantity: 0,
    price: 800,
    triggerPrice: 0,
    averagePrice: 0,
    status: 'open',
    timestamp: '23-Nov-2026 10:00:00',
  };
}

/** A table row's cells as text, whitespace collapsed. */
export const cells = (row: Element | undefined) =>
  [...(row?.children ?? [])].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim());
export const enter = (el: Element) => fireEvent.keyDown(el, { key: 'Enter' });
/** Waits for the preview asked after the typing pause to be answered, then for the ticket to show it. */
export async function waitPreview(): Promise<void> {
  await vi.waitFor(
    () => {
      if (previewsAnswered === previewsSeen) throw new Error('no preview answered yet');
    },
    { timeout: 2000, interval: 10 },
  );
  previewsSeen = previewsAnswered;
  await settle();
}
