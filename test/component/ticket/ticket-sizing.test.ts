// Size from risk in the ticket: the stop and the rupees at risk fill the quantity in whole lots and
// say the risk those lots carry; a refused sizing says why and Enter in its fields sends nothing; a
// sized order still goes through the ticket's own send.
import { fireEvent, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { settle } from '../../support/component/desk-fixture';
import { NIFTY_FUT } from '../../support/component/instruments';
import { mountTicketPane, placed } from '../../support/component/ticket-mount';

afterEach(() => document.body.replaceChildren());

const mount = () =>
  mountTicketPane({
    instruments: [NIFTY_FUT],
    lastPrice: 24010.5,
    before: (f) => {
      f.settings.risk = { ...f.settings.risk, maxValuePerOrder: 1e10, maxQuantityPerOrder: 100000 };
    },
  });

const type = async (label: string, text: string) => {
  const el = screen.getByLabelText(label) as HTMLInputElement;
  el.value = text;
  await fireEvent.input(el);
  await settle();
  return el;
};

describe('size from risk', () => {
  it('fills the quantity in whole lots and says the risk they carry; the order goes on Enter', async () => {
    const { ticket, bridge } = await mount();
    bridge.answer('orders.place', () => placed('S1'));
    const toggle = screen.getByRole('button', { name: /Size from risk/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(toggle);
    expect(ticket.priceText).toBe('24010.50');
    await type('Stop', '23990.5');
    const risk = await type('Risk ₹', '5000');
    expect(ticket.quantityText).toBe('195');
    expect(screen.getByTestId('sizing-result').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '→ 3 lots (195) · risk ₹3,900.00 · stop 23,990.50',
    );
    await fireEvent.keyDown(risk, { key: 'Enter' });
    await settle();
    expect(bridge.callsTo('orders.place')[0]?.input).toMatchObject({ quantity: 195, action: 'BUY' });
  });

  it('points, and lots as the unit: the Lots field gets the lots', async () => {
    const { ticket } = await mount();
    ticket.setUnit('lots');
    await fireEvent.click(screen.getByRole('button', { name: /Size from risk/ }));
    await fireEvent.click(screen.getByRole('radio', { name: 'Stop as points' }));
    await type('Stop pts', '10');
    await type('Risk ₹', '2000');
    expect(ticket.quantityText).toBe('3');
  });

  it('a stop on the wrong side or a risk under one lot is refused in words; the quantity stays; Enter sends nothing', async () => {
    const { ticket, bridge } = await mount();
    bridge.answer('orders.place', () => placed('S2'));
    await fireEvent.click(screen.getByRole('button', { name: /Size from risk/ }));
    await type('Stop', '24050');
    const risk = await type('Risk ₹', '5000');
    expect(screen.getByTestId('sizing-result').textContent?.trim()).toBe(
      "A BUY's stop must be below the entry 24,010.50",
    );
    expect(ticket.quantityText).toBe('65');
    await fireEvent.keyDown(risk, { key: 'Enter' });
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    await type('Stop', '23990.5');
    await type('Risk ₹', '1000');
    expect(screen.getByTestId('sizing-result').textContent?.trim()).toBe(
      '₹1,000.00 does not cover one lot: one lot risks ₹1,300.00 at this stop',
    );
    // The quantity stays at the last sizing that held (₹5,000: 195); Enter here still sends nothing.
    expect(ticket.quantityText).toBe('195');
    await fireEvent.keyDown(risk, { key: 'Enter' });
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
  });
});
