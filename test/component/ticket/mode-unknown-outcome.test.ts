// A send whose outcome is unknown, in each ticket mode: said once, in the core's own words.
import { fireEvent, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle } from '../../support/component/desk-fixture';
import { mount, enter, waitPreview } from './modes-fixture';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('an unknown outcome in each mode', () => {
  // The core's own words (gateway/errors UNKNOWN_OUTCOME_MESSAGE): the line must not say it twice.
  const unknown = {
    ok: false as const,
    error: { kind: 'unknown_outcome' as const, message: 'outcome unknown — reconciling from the order book' },
  };
  const reconcilingCount = () => (document.body.textContent?.match(/reconciling/g) ?? []).length;

  it('smart, split and basket say "reconciling" once', async () => {
    const smart = await mount({ mode: 'smart', position: 0 });
    smart.bridge.answer('orders.smart', () => unknown);
    const target = screen.getByLabelText('Target position');
    await fireEvent.input(target, { target: { value: '10' } });
    await waitPreview();
    await enter(target);
    await settle();
    expect(screen.getByText(/^Sent, no answer from the gateway: outcome unknown/)).toBeInTheDocument();
    expect(reconcilingCount()).toBe(1);
    document.body.replaceChildren();

    const split = await mount({ mode: 'split' });
    split.bridge.answer('orders.split', () => unknown);
    split.ticket.quantityText = '40';
    const size = screen.getByLabelText('Split size');
    await fireEvent.input(size, { target: { value: '20' } });
    await waitPreview();
    await enter(size);
    await settle();
    expect(screen.getByText(/^Sent, no answer from the gateway: outcome unknown/)).toBeInTheDocument();
    expect(reconcilingCount()).toBe(1);
    document.body.replaceChildren();

    const basket = await mount({ mode: 'basket' });
    basket.bridge.answer('orders.basket', () => unknown);
    await enter(screen.getByLabelText('Qty'));
    const send = screen.getByRole('button', { name: /Send basket: 1 order/ });
    send.focus();
    await enter(send);
    await settle();
    expect(screen.getByText(/^Sent, no answer from the gateway: outcome unknown/)).toBeInTheDocument();
    expect(reconcilingCount()).toBe(1);
  });
});
