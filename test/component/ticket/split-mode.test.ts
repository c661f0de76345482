// The ticket's Split mode as a trader uses it: the freeze quantity as the split size, the children
// previewed from the core's plan, one send, and each child's result.
import { fireEvent, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle } from '../../support/component/desk-fixture';
import { NIFTY_FUT } from '../../support/component/instruments';
import { mount, cells, enter, waitPreview } from './modes-fixture';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('Split mode', () => {
  it('suggests the freeze quantity as the split size', async () => {
    await mount({ mode: 'split', open: NIFTY_FUT });
    expect((screen.getByLabelText('Split size') as HTMLInputElement).value).toBe('1800');
    expect(screen.getByRole('button', { name: 'Use freeze 1,800' })).toBeDisabled();
  });

  it('previews 105 by 20 as six children with the remainder last, sends once, lists each result', async () => {
    const { bridge, ticket } = await mount({ mode: 'split' });
    ticket.quantityText = '105';
    const size = screen.getByLabelText('Split size');
    await fireEvent.input(size, { target: { value: '20' } });
    await waitPreview();
    const rows = screen.getAllByTestId('split-child');
    expect(rows.map((r) => r.children[1]?.textContent)).toEqual(['20', '20', '20', '20', '20', '5']);
    expect(screen.getByTestId('split-summary')).toHaveTextContent(
      '6 children · total 105 · remainder 5 last',
    );
    expect(bridge.callsTo('orders.previewSplit').at(-1)?.input).toMatchObject({
      quantity: 105,
      splitsize: 20,
    });

    bridge.answer('orders.split', () => ({
      ok: true,
      value: {
        status: 'success',
        split_size: 20,
        total_quantity: 105,
        results: [20, 20, 20, 20, 20, 5].map((q, i) => ({
          order_num: i + 1,
          orderid: `C${i + 1}`,
          quantity: q,
          status: 'success',
        })),
      },
    }));
    await enter(size);
    await enter(size);
    await settle();
    expect(bridge.callsTo('orders.split')).toHaveLength(1);
    const results = screen.getAllByTestId('split-result');
    expect(results).toHaveLength(6);
    expect(cells(results[5])).toEqual(['6', '5', 'C6', 'placed']);
    expect(screen.getByText('Sent: 6 of 6 children placed')).toBeInTheDocument();
  });

  it('a quantity above the freeze is no problem in split mode; a child above it is', async () => {
    const { ticket } = await mount({ mode: 'split', open: NIFTY_FUT });
    ticket.quantityText = '3900';
    await waitPreview();
    expect(screen.queryByText(/exceeds the freeze quantity 1,800: use a split order/)).toBeNull();
    expect(screen.getAllByTestId('split-child').map((r) => r.children[1]?.textContent)).toEqual([
      '1,800',
      '1,800',
      '300',
    ]);
    await fireEvent.input(screen.getByLabelText('Split size'), { target: { value: '1950' } });
    await waitPreview();
    expect(screen.getByText('A child of 1,950 exceeds the freeze quantity 1,800')).toBeInTheDocument();
  });
});
