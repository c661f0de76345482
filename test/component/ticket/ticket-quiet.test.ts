// The ticket says only what is true now: "Gateway unreachable" lasts exactly as long as the gateway
// is down (even the line a refused press left), and a placed order's line follows its row in the
// order book (placed → open → cancelled, complete, or rejected with the reason's amounts grouped).
import { fireEvent, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderSnapshot } from '@contract';
import { settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';
import { mountTicketPane } from '../../support/component/ticket-mount';

afterEach(() => document.body.replaceChildren());

const DOWN = 'Gateway unreachable: not sending until it is back';

const mountTicket = () => mountTicketPane({ instruments: [SBIN] });

const qty = () => screen.getByLabelText('Qty') as HTMLInputElement;
const enter = (el: Element) => fireEvent.keyDown(el, { key: 'Enter' });
const ticketText = () => screen.getByRole('form', { name: 'Order ticket' }).textContent ?? '';

function row(over: Partial<OrderSnapshot>): OrderSnapshot {
  return {
    orderid: 'P1',
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    product: 'CNC',
    pricetype: 'LIMIT',
    quantity: 10,
    filledQuantity: 0,
    price: 900,
    triggerPrice: 0,
    averagePrice: 0,
    status: 'open',
    timestamp: '28-Nov-2026 09:20:00',
    ...over,
  };
}
const STATS = {
  totalBuyOrders: 1,
  totalSellOrders: 0,
  totalCompletedOrders: 0,
  totalOpenOrders: 1,
  totalRejectedOrders: 0,
};

describe('the connection message', () => {
  it('says the gateway is unreachable while it is, and nothing of it once it is back', async () => {
    const { bridge, desk } = await mountTicket();
    desk.connection = 'disconnected';
    await settle();
    expect(ticketText()).toContain(DOWN);
    // A press while down is refused, in words, and sends nothing.
    await enter(qty());
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getAllByText(DOWN).length).toBeGreaterThan(0);

    desk.connection = 'connected';
    await settle();
    expect(ticketText()).not.toContain('Gateway unreachable');
    expect(screen.queryByText(DOWN)).toBeNull();

    // And the next press sends.
    bridge.answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: 'P1' } }));
    await enter(qty());
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });

  it('another hint the press left (not about the link) stays after the link comes back', async () => {
    const { desk, ticket } = await mountTicket();
    ticket.quantityText = '';
    await settle();
    await enter(qty());
    await settle();
    const said = ticketText();
    expect(said).toMatch(/quantity/i);
    desk.connection = 'disconnected';
    await settle();
    desk.connection = 'connected';
    await settle();
    expect(ticketText()).toBe(said);
  });
});

describe("a placed order's line", () => {
  it('follows the order book: placed, open, part filled, cancelled', async () => {
    const { bridge, books } = await mountTicket();
    bridge.answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: 'P1' } }));
    await enter(qty());
    await settle();
    expect(screen.getByText('Placed · order P1')).toBeInTheDocument();

    books.orders = { orders: [row({})], statistics: STATS };
    await settle();
    expect(screen.getByText('Open · order P1')).toBeInTheDocument();
    expect(screen.queryByText(/Placed · order P1/)).toBeNull();

    books.orders = { orders: [row({ filledQuantity: 4 })], statistics: STATS };
    await settle();
    expect(screen.getByText('Open · 4 of 10 filled · order P1')).toBeInTheDocument();

    books.orders = { orders: [row({ status: 'cancelled', filledQuantity: 4 })], statistics: STATS };
    await settle();
    expect(screen.getByText('Cancelled · 4 of 10 filled · order P1')).toBeInTheDocument();
  });

  it("is gone after a profile switch: the other gateway's book knows nothing of the order", async () => {
    const { bridge, books, desk } = await mountTicket();
    const paper = {
      id: 'paper',
      name: 'Paper',
      kind: 'paper' as const,
      baseUrl: 'http://127.0.0.1:7815',
      strategy: 'OrderDesk',
      rateLimitPerSecond: 10,
      active: true,
      hasKey: true,
    };
    desk.profile = paper;
    await settle();
    bridge.answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: 'P1' } }));
    await enter(qty());
    await settle();
    books.orders = { orders: [row({ status: 'cancelled' })], statistics: STATS };
    await settle();
    expect(screen.getByText('Cancelled · order P1')).toBeInTheDocument();
    desk.profile = { ...paper, id: 'zerodha', name: 'Zerodha', kind: 'gateway' as const };
    books.orders = { orders: [], statistics: STATS };
    await settle();
    expect(ticketText()).not.toContain('order P1');
  });

  it("says complete, and a rejection with the gateway's reason, its amounts grouped", async () => {
    const { bridge, books } = await mountTicket();
    bridge.answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: 'P1' } }));
    await enter(qty());
    await settle();
    // Another order's row says nothing of this one.
    books.orders = { orders: [row({ orderid: 'P0', status: 'complete' })], statistics: STATS };
    await settle();
    expect(screen.getByText('Placed · order P1')).toBeInTheDocument();
    books.orders = { orders: [row({ status: 'complete', filledQuantity: 10 })], statistics: STATS };
    await settle();
    expect(screen.getByText('Complete · order P1')).toBeInTheDocument();
    books.orders = {
      orders: [
        row({
          status: 'rejected',
          rejectionReason:
            'Insufficient funds. Required: ₹18048000.00, Available: ₹100.00, Shortage: ₹18047900.00',
        }),
      ],
      statistics: STATS,
    };
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Rejected · order P1: Insufficient funds. Required: ₹1,80,48,000.00, Available: ₹100.00, Shortage: ₹1,80,47,900.00',
    );
  });
});
