// An order's outcome line is brought into view when it appears: in a short window the ticket column
// scrolls, and "Sent, no answer from the gateway…" must not sit cut off under the fold.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';

// jsdom has no scrollIntoView: the test installs a recorder and puts back what was there.
const original = Element.prototype.scrollIntoView;
afterEach(() => {
  Element.prototype.scrollIntoView = original;
  document.body.replaceChildren();
});

describe('the outcome line', () => {
  it('is scrolled into view (nearest) in the frame after an unknown outcome arrives, not before', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    const f = deskFixture({ instruments: [SBIN] });
    f.bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'unknown_outcome', message: 'outcome unknown — reconciling from the order book' },
    }));
    render(Ticket, { context: f.context });
    await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 905.3 });
    await settle();
    expect(scrolled).toEqual([]);
    await fireEvent.keyDown(screen.getByLabelText('Qty'), { key: 'Enter' });
    await settle();
    // Scrolled in the next frame, after the answer is already in the DOM.
    await new Promise<void>((r) => requestAnimationFrame(() => r()));
    const line = screen.getByText(/^Sent, no answer from the gateway: outcome unknown/);
    expect(scrolled.length).toBeGreaterThan(0);
    expect(scrolled.at(-1)?.contains(line)).toBe(true);
    expect(Element.prototype.scrollIntoView).toHaveBeenLastCalledWith({ block: 'nearest' });
  });
});
