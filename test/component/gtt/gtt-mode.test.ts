// The ticket's GTT mode as a trader uses it: a single trigger or an OCO from the ticket's instrument,
// side and quantity, CNC/NRML only, what stops a send said in words, and the request the core gets.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { GttPlaceIpcInput } from '@contract';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ALERT_LOG, BOOKS, TICKET_MODES } from '../../../src-renderer/src/state/context';
import { TicketModes } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';
import { snapshot } from '../../support/component/session';

afterEach(() => document.body.replaceChildren());

async function mount() {
  const f = deskFixture({ instruments: [SBIN] });
  f.desk.profile = snapshot().profile;
  const data = new Map<string, string>();
  const modes = new TicketModes(f.bridge, {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
  });
  f.context.set(TICKET_MODES, modes);
  f.context.set(BOOKS, new BooksState(f.bridge));
  f.context.set(ALERT_LOG, new AlertLog(f.bridge));
  f.bridge
    .answer('gtt.place', () => ({
      ok: true,
      value: { status: 'success', trigger_id: 'GTT-261120-0a1b2c3d' },
    }))
    .answer('gtt.book', () => ({ ok: true, value: { gtts: [] } }));
  render(Ticket, { context: f.context });
  await f.ticket.open('BUY', { symbol: SBIN.symbol, exchange: SBIN.exchange }, { lastPrice: 905.3 });
  await settle();
  await fireEvent.click(
    within(screen.getByRole('group', { name: 'Ticket mode' })).getByRole('radio', { name: 'GTT' }),
  );
  await settle();
  return { ...f, modes };
}

describe('the GTT mode', () => {
  it('hides the regular price fields, says what is missing, and sends a SINGLE below the price as a stoploss trigger', async () => {
    const f = await mount();
    expect(screen.queryByLabelText('Price')).toBeNull();
    expect(screen.getByRole('group', { name: 'GTT product' })).toHaveTextContent('CNCNRML');
    expect(screen.queryByText(/MIS/, { selector: '.tmode label' })).toBeNull();
    expect(screen.getByText('Enter a trigger price above 0')).toBeInTheDocument();
    await fireEvent.input(screen.getByLabelText('Trigger'), { target: { value: '880' } });
    expect(screen.getByText('Enter the limit price the order is placed at')).toBeInTheDocument();
    await fireEvent.input(screen.getByLabelText('Limit price'), { target: { value: '882.5' } });
    expect(screen.getByTestId('gtt-summary')).toHaveTextContent('trigger 880.00 → limit 882.50');
    await fireEvent.keyDown(screen.getByLabelText('Limit price'), { key: 'Enter' });
    await settle();
    const calls = f.bridge.callsTo('gtt.place');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.input).toMatchObject({
      trigger_type: 'SINGLE',
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      product: 'CNC',
      pricetype: 'LIMIT',
      price: 882.5,
      triggerprice_sl: 880,
    } satisfies Partial<GttPlaceIpcInput>);
    expect(screen.getByText(/GTT placed: GTT-261120-0a1b2c3d/)).toBeInTheDocument();
  });

  it('an OCO needs the price between its triggers, in words, and sends all four prices', async () => {
    const f = await mount();
    await fireEvent.click(screen.getByRole('radio', { name: 'OCO' }));
    await fireEvent.click(screen.getByRole('radio', { name: 'NRML' }));
    await fireEvent.input(screen.getByLabelText('SL trigger'), { target: { value: '910' } });
    await fireEvent.input(screen.getByLabelText('SL limit'), { target: { value: '905' } });
    await fireEvent.input(screen.getByLabelText('Target trigger'), { target: { value: '950' } });
    await fireEvent.input(screen.getByLabelText('Target limit'), { target: { value: '955' } });
    expect(
      screen.getByText('The last price must lie between the stoploss and the target triggers'),
    ).toBeInTheDocument();
    await fireEvent.input(screen.getByLabelText('SL trigger'), { target: { value: '860' } });
    await fireEvent.input(screen.getByLabelText('SL limit'), { target: { value: '855' } });
    await fireEvent.keyDown(screen.getByLabelText('Target limit'), { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('gtt.place')[0]?.input).toMatchObject({
      trigger_type: 'OCO',
      product: 'NRML',
      triggerprice_sl: 860,
      stoploss: 855,
      triggerprice_tg: 950,
      target: 955,
    });
  });

  it('a GTT held because an identical one is in doubt says why, and "Send anyway" sends it deliberately', async () => {
    const f = await mount();
    const held = 'the same GTT from 09:59:56 is still being reconciled (SINGLE BUY 1 SBIN NSE, …)';
    f.bridge.answer('gtt.place', (input) =>
      (input as GttPlaceIpcInput).confirmDuplicate
        ? { ok: true, value: { status: 'success', trigger_id: 'GTT-261120-0a1b2c3e' } }
        : { ok: false, error: { kind: 'unresolved_duplicate', message: held } },
    );
    await fireEvent.input(screen.getByLabelText('Trigger'), { target: { value: '880' } });
    await fireEvent.input(screen.getByLabelText('Limit price'), { target: { value: '882.5' } });
    await fireEvent.keyDown(screen.getByLabelText('Limit price'), { key: 'Enter' });
    await settle();
    expect(screen.getByText(`GTT held back, not sent: ${held}`)).toBeInTheDocument();
    await fireEvent.click(screen.getByRole('button', { name: 'Send anyway: this is not a duplicate' }));
    await settle();
    const calls = f.bridge.callsTo('gtt.place');
    expect(calls.map((c) => (c.input as GttPlaceIpcInput).confirmDuplicate ?? false)).toEqual([false, true]);
    expect(screen.getByText(/GTT placed: GTT-261120-0a1b2c3e/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send anyway: this is not a duplicate' })).toBeNull();
  });
});
