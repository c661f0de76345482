// The ticket's margin on a gateway (live) profile comes from the gateway's margin operation (asked
// after a pause in typing, labelled with its source), "margin unknown" when the gateway cannot say,
// never the paper gateway's leverage table; paper keeps its leverage estimate, labelled so. Before a
// send the margin is compared with the available cash: an order that needs more is not sent until
// the trader says so.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult, MarginEstimate, ProfileView } from '@contract';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { BOOKS } from '../../../src-renderer/src/state/context';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { snapshot } from '../../support/component/session';
import { SBIN } from '../../support/component/instruments';
import { pass, useMovedClock } from '../../support/component/moved-clock';

beforeEach(useMovedClock);
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

/** Past the ticket's pause before it asks the gateway (300 ms), on the moved clock. */
const pause = (ms = 450) => pass(ms);

const NOT_OFFERED: IpcResult<MarginEstimate> = {
  ok: false,
  error: { kind: 'not_offered', message: 'the gateway does not offer margin', httpStatus: 404 },
};

function profile(kind: ProfileView['kind']): ProfileView {
  const paper = snapshot().profile;
  return kind === 'paper'
    ? paper
    : { ...paper, id: 'broker', name: 'Broker', kind, baseUrl: 'http://127.0.0.1:5000' };
}

interface MountOptions {
  kind: ProfileView['kind'];
  margin?: () => IpcResult<MarginEstimate> | Promise<IpcResult<MarginEstimate>>;
  /** funds' availablecash; no funds read at all when undefined. */
  available?: string;
  /** Risk limits large enough for a crore order. */
  bigLimits?: boolean;
}

async function mount(o: MountOptions) {
  const f = deskFixture({ instruments: [SBIN] });
  if (o.bigLimits)
    f.settings.risk = { ...f.settings.risk, maxQuantityPerOrder: 100_000_000, maxValuePerOrder: 1e12 };
  if (o.margin) f.bridge.answer('orders.margin', o.margin);
  f.desk.profile = profile(o.kind);
  const books = new BooksState(f.bridge);
  if (o.available !== undefined)
    books.funds = {
      availableCash: o.available,
      collateral: '0.00',
      realisedMtm: '0.00',
      unrealisedMtm: '0.00',
      utilisedDebits: '0.00',
    };
  f.context.set(BOOKS, books);
  render(Ticket, { context: f.context });
  await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 905.3 });
  await settle();
  return f;
}

const estimate = () => screen.getByRole('group', { name: 'Order value and margin estimate' });
const qty = () => screen.getByLabelText('Qty') as HTMLInputElement;
async function type(el: HTMLInputElement, text: string): Promise<void> {
  el.value = text;
  await fireEvent.input(el);
}

describe('the margin figure and its source', () => {
  it('a live profile whose gateway has no margin operation says "margin unknown", never the paper leverage figure', async () => {
    const f = await mount({ kind: 'gateway', margin: () => NOT_OFFERED });
    await type(qty(), '10');
    await pause();
    expect(f.bridge.callsTo('orders.margin')).toHaveLength(1);
    expect(estimate()).toHaveTextContent(/Margin unknown/i);
    // ₹9,053.00 ÷ 1 (CNC) is the paper table's figure: it must not be shown as this account's margin.
    expect(estimate()).not.toHaveTextContent(/≈|×|leverage/);
    expect(
      within(estimate())
        .getByText(/Margin unknown/i)
        .closest('[title]')
        ?.getAttribute('title'),
    ).toMatch(/does not offer margin/);
  });

  it("shows the gateway's figure labelled with its source, asked once after the pause in typing", async () => {
    const f = await mount({
      kind: 'gateway',
      margin: () => ({
        ok: true,
        value: { total: '1811.00', span: '0.00', exposure: '1811.00', source: 'gateway' },
      }),
    });
    f.bridge.calls.length = 0;
    await type(qty(), '1');
    await type(qty(), '10');
    // A new last price alone asks nothing again.
    f.ticket.lastPrice = 906;
    await settle();
    expect(f.bridge.callsTo('orders.margin')).toHaveLength(0);
    expect(estimate()).toHaveTextContent(/Margin …/);
    await pause();
    expect(f.bridge.callsTo('orders.margin')).toHaveLength(1);
    expect(f.bridge.callsTo('orders.margin')[0]?.input).toEqual({
      positions: [
        {
          symbol: 'SBIN',
          exchange: 'NSE',
          action: 'BUY',
          quantity: 10,
          product: 'CNC',
          pricetype: 'LIMIT',
          price: 905.3,
          trigger_price: 0,
        },
      ],
    });
    expect(estimate()).toHaveTextContent('Margin ₹1,811.00 (gateway)');
  });

  it('paper keeps its leverage estimate, labelled as the paper leverage, and asks nothing', async () => {
    const f = await mount({ kind: 'paper', margin: () => NOT_OFFERED });
    await type(qty(), '10');
    await fireEvent.click(screen.getByRole('radio', { name: 'MIS' }));
    await pause();
    expect(estimate()).toHaveTextContent('Margin ≈ ₹1,810.60 (paper leverage)');
    expect(f.bridge.callsTo('orders.margin')).toHaveLength(0);
  });
});

describe('the funds check before sending', () => {
  // 20,000 SBIN at ₹900 CNC: ₹1.8 crore, with ₹1 crore available.
  const crore = { total: '18000000.00', span: '0.00', exposure: '18000000.00', source: 'gateway' } as const;

  async function typeBigOrder(f: Awaited<ReturnType<typeof mount>>): Promise<void> {
    await type(qty(), '20000');
    await type(screen.getByLabelText('Price') as HTMLInputElement, '900');
    expect(f.ticket.request).toMatchObject({ quantity: 20000, price: 900, product: 'CNC' });
  }

  /** A gateway ticket with ₹1 crore available and the ₹1.8 crore order typed in. */
  async function bigOrder() {
    const f = await mount({
      kind: 'gateway',
      bigLimits: true,
      available: '10000000.00',
      margin: () => ({ ok: true, value: crore }),
    });
    await typeBigOrder(f);
    return f;
  }

  it('a ₹1.8 cr CNC buy with ₹1 cr available is held at a warning in words, sent only once acknowledged', async () => {
    const f = await bigOrder();
    f.bridge.answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: '77' } }));
    await pause();
    await fireEvent.keyDown(qty(), { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(0);
    const ask = screen.getByRole('group', { name: 'Confirm the order' });
    expect(ask).toHaveTextContent(
      'This order needs about ₹1,80,00,000.00 of margin; ₹1,00,00,000.00 is available',
    );
    // A hurried second Enter is not the acknowledgement.
    await fireEvent.keyDown(screen.getByRole('button', { name: /Confirm/ }), { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(0);
    await pause(350);
    await fireEvent.click(within(ask).getByRole('button', { name: /Confirm/ }));
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(1);
    expect(screen.getByText('Placed · order 77')).toBeInTheDocument();
  });

  it('Back at the warning sends nothing', async () => {
    const f = await bigOrder();
    await pause();
    await fireEvent.keyDown(qty(), { key: 'Enter' });
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getByText('Not sent')).toBeInTheDocument();
  });

  it('an Enter before the margin answer waits for it, then warns', async () => {
    const f = await bigOrder();
    // At once, inside the pause: the ticket asks now rather than send unchecked.
    await fireEvent.keyDown(qty(), { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.margin').length).toBeGreaterThanOrEqual(1);
    expect(f.bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getByRole('group', { name: 'Confirm the order' })).toHaveTextContent(
      /needs about ₹1,80,00,000\.00/,
    );
  });

  it('unknown margin is said at the send, and does not block it', async () => {
    // ₹9,053.00 of SBIN against ₹1,000.00: only the gateway's margin could say whether it fits.
    const f = await mount({ kind: 'gateway', available: '1000.00', margin: () => NOT_OFFERED });
    f.bridge.answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: '78' } }));
    await type(qty(), '10');
    await pause();
    await fireEvent.keyDown(qty(), { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(1);
    expect(
      screen.getByText(
        'The margin this order needs is unknown (the gateway does not offer margin): not checked against the available funds',
      ),
    ).toBeInTheDocument();
  });

  it('an order whose whole value fits the cash goes at once: no wait for the gateway’s margin, no note', async () => {
    // The margin answer never comes: Enter 50 ms after typing must not wait for it (a scalper's
    // order would carry a margin round trip), since no margin can exceed the order's value.
    const f = await mount({
      kind: 'gateway',
      available: '10000000.00',
      margin: () => new Promise<IpcResult<MarginEstimate>>(() => {}),
    });
    f.bridge.answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: '79' } }));
    await type(qty(), '10');
    await pause(50);
    await fireEvent.keyDown(qty(), { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(1);
    expect(screen.queryByText(/not checked against the available funds/)).toBeNull();
    expect(screen.queryByText(/Checking the margin/)).toBeNull();
  });

  it('with no funds read yet, reads them fresh before judging', async () => {
    const f = await mount({ kind: 'gateway', bigLimits: true, margin: () => ({ ok: true, value: crore }) });
    f.bridge.answer('books.funds', () => ({
      ok: true,
      value: {
        availableCash: '10000000.00',
        collateral: '0.00',
        realisedMtm: '0.00',
        unrealisedMtm: '0.00',
        utilisedDebits: '0.00',
      },
    }));
    await typeBigOrder(f);
    await pause();
    await fireEvent.keyDown(qty(), { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('books.funds')).toHaveLength(1);
    expect(f.bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getByRole('group', { name: 'Confirm the order' })).toHaveTextContent(
      '₹1,00,00,000.00 is available',
    );
  });
});
