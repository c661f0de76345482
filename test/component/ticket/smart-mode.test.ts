// The ticket's Smart mode as a trader uses it: the target position, the preview of the exact order,
// the warning about working orders, one send, and the result checked against the preview.
import { fireEvent, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult, SmartOrderResponse } from '@contract';
import { settle } from '../../support/component/desk-fixture';
import { deferred } from '../../support/component/fake-bridge';
import { mount, working, enter, waitPreview } from './modes-fixture';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('Smart mode', () => {
  it('previews the position now and the exact order the rules produce, then sends it once', async () => {
    const { bridge } = await mount({ mode: 'smart', position: 40 });
    const target = screen.getByLabelText('Target position');
    await fireEvent.input(target, { target: { value: '100' } });
    await waitPreview();
    expect(screen.getByTestId('smart-current')).toHaveTextContent('+40');
    expect(screen.getByTestId('smart-target')).toHaveTextContent('+100');
    expect(screen.getByTestId('smart-order')).toHaveTextContent('Will send BUY 60 SBIN');
    expect(bridge.callsTo('orders.previewSmart').at(-1)?.input).toMatchObject({
      symbol: 'SBIN',
      exchange: 'NSE',
      position_size: 100,
    });

    const answer = deferred<IpcResult<SmartOrderResponse>>();
    bridge
      .answer('orders.smart', () => answer.promise)
      .answer('orders.status', () => ({
        ok: true,
        value: { ...working('S1', 60), status: 'complete', filledQuantity: 60 },
      }));
    // A double Enter while the first is in flight, then one more once it has answered: one order.
    await enter(target);
    await enter(target);
    expect(screen.getByText('Still sending: the extra press was ignored')).toBeInTheDocument();
    answer.resolve({ ok: true, value: { status: 'success', orderid: 'S1' } });
    await settle();
    await enter(target);
    await settle();
    expect(bridge.callsTo('orders.smart')).toHaveLength(1);
    expect(bridge.callsTo('orders.smart')[0]?.input).toMatchObject({ position_size: 100, symbol: 'SBIN' });
    expect(screen.getByTestId('smart-check')).toHaveTextContent('As previewed: BUY 60 (order S1)');
    expect(screen.getByText(/Already sent as it stands/)).toBeInTheDocument();
  });

  it('shows the position the books hold before a target is typed', async () => {
    const { books } = await mount({ mode: 'smart' });
    books.positions = {
      positions: [
        {
          symbol: 'SBIN',
          exchange: 'NSE',
          product: 'CNC',
          quantity: -25,
          averagePrice: 900,
          ltp: 905,
          mtm: -125,
        },
      ],
      totalMtm: -125,
    };
    await settle();
    expect(screen.getByTestId('smart-booked')).toHaveTextContent('Position in the books -25 (CNC)');
    expect(screen.getByText('Type the target position (negative for short, 0 to exit)')).toBeInTheDocument();
  });

  it('says "no action" when the position is already at the target', async () => {
    await mount({ mode: 'smart', position: 100 });
    await fireEvent.input(screen.getByLabelText('Target position'), { target: { value: '100' } });
    await waitPreview();
    expect(screen.getByTestId('smart-order')).toHaveTextContent(
      'No action: Positions Already Matched. No Action needed.',
    );
  });

  it('warns when resting orders would carry the position past the target (three smart orders to 100)', async () => {
    // Two earlier smart orders to 100 rest unfilled: the gateway sizes a third from the position alone.
    await mount({ mode: 'smart', position: 0, orders: [working('A', 100), working('B', 100)] });
    await fireEvent.input(screen.getByLabelText('Target position'), { target: { value: '100' } });
    await waitPreview();
    expect(screen.getByTestId('smart-order')).toHaveTextContent('Will send BUY 100 SBIN');
    expect(screen.getByTestId('smart-warning')).toHaveTextContent(
      '2 working orders on SBIN (BUY 200 unfilled) would carry the position to +300, past the target +100',
    );
  });

  it('raises an alert when what the gateway placed differs from the preview', async () => {
    const { bridge, alerts } = await mount({ mode: 'smart', position: 0 });
    await fireEvent.input(screen.getByLabelText('Target position'), { target: { value: '50' } });
    await waitPreview();
    expect(screen.getByTestId('smart-order')).toHaveTextContent('Will send BUY 50 SBIN');
    // The position moved between the preview and the gateway's decision: it bought 30, not 50.
    bridge
      .answer('orders.smart', () => ({ ok: true, value: { status: 'success', orderid: 'S2' } }))
      .answer('orders.status', () => ({ ok: true, value: working('S2', 30) }));
    await enter(screen.getByLabelText('Target position'));
    await settle();
    expect(screen.getByTestId('smart-check')).toHaveTextContent(
      'The preview said BUY 50; the gateway placed BUY 30 (order S2)',
    );
    expect(alerts.entries[0]).toMatchObject({
      kind: 'warning',
      orderid: 'S2',
      title: 'Smart order SBIN: result differs from the preview',
    });
  });
});
