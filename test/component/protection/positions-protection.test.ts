// A position row with protection: its stop and target at the tick (en-IN grouped, the nearest of
// several with their count, the trailing state), edited in the row by key (L, T: Enter sends,
// off-tick refused with words and nothing sent), a GTT bracket's stop tagged "GTT", an unprotected bracket's row in red with the word
// and the reason and R placing the leg again, F asking before a flatten; and the hazard banner.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BracketView, PositionView } from '@contract';
import Confirm from '../../../src-renderer/src/components/Confirm.svelte';
import ProtectionHazards from '../../../src-renderer/src/components/ProtectionHazards.svelte';
import { dispatchRowAction } from '../../../src-renderer/src/lib/row-action';
import Positions from '../../../src-renderer/src/panes/Positions.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { CloseAllFlow } from '../../../src-renderer/src/state/close-all.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import {
  BOOKS,
  CLOSE_ALL,
  CONFIRM,
  HOTKEYS,
  MARKET,
  ORDER_ACTIONS,
  PROTECTION,
  TICKET,
} from '../../../src-renderer/src/state/context';
import { HotkeysState } from '../../../src-renderer/src/state/hotkeys.svelte';
import { MarketState } from '../../../src-renderer/src/state/market.svelte';
import { OrderActions } from '../../../src-renderer/src/state/order-actions.svelte';
import { ProtectionState } from '../../../src-renderer/src/state/protection.svelte';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import { flush, position, snapshot } from '../../support/component/books-fixtures';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { installLayout } from '../../support/component/jsdom-layout';
import { bracket, leg, unprotected } from './fixtures';

beforeAll(() => installLayout());
let stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops) s();
  stops = [];
  document.body.replaceChildren();
});

const LONG = position({ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: 10, ltp: 905.3 });

async function desk(brackets: BracketView[], positions: PositionView[] = [LONG]) {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({ positions: { positions, totalMtm: 0 } }),
    }))
    .answer('protection.brackets', () => ({ ok: true, value: { profileId: 'paper', brackets } }))
    .answer('settings.get', () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }));
  const books = new BooksState(b);
  const confirm = new ConfirmState();
  const protection = new ProtectionState(b, { confirm, asks: () => false });
  const hotkeys = new HotkeysState();
  const context = deskContext(b, [
    [BOOKS, books],
    [CONFIRM, confirm],
    [TICKET, new TicketState(b)],
    [MARKET, new MarketState(b)],
    [ORDER_ACTIONS, new OrderActions(b, confirm)],
    [CLOSE_ALL, new CloseAllFlow(b, confirm)],
    [PROTECTION, protection],
    [HOTKEYS, hotkeys],
  ]);
  stops.push(books.start(), protection.start());
  // The window's one key listener, as the layout wires it: row keys reach the focused row.
  stops.push(
    hotkeys.attach(window, (action, e) => void dispatchRowAction(e.target, action, '[data-hotkey-row]')),
  );
  render(Positions, { context });
  render(ProtectionHazards, { context });
  render(Confirm, { props: { confirm } });
  for (let i = 0; i < 6; i++) await flush();
  return { bridge: b, protection, confirm };
}

// virtua keeps rows visibility-hidden until measured (jsdom never measures): boxes by their label.
const box = (name: string) => document.querySelector<HTMLInputElement>(`input[aria-label="${name}"]`);
const row = () => document.querySelector<HTMLElement>('[data-row-key="NSE:SBIN:MIS"]')!;
const cell = (side: 'stop' | 'target') =>
  row().querySelector<HTMLElement>(`[data-testid="protection-${side}"]`)!;
async function press(key: string, on: HTMLElement = row()): Promise<void> {
  on.focus();
  await fireEvent.keyDown(on, { key });
  for (let i = 0; i < 4; i++) await flush();
}

describe('a protected position row', () => {
  it('shows the stop and target at the tick, en-IN grouped, with the trail and the count of brackets', async () => {
    await desk([
      bracket({
        entry: 'A',
        stop: leg({ price: 12345.05 }),
        target: leg({ price: 12400 }),
        trail: 'trailing',
      }),
      bracket({ entry: 'B', stop: leg({ price: 12340 }), target: undefined }),
    ]);
    expect(cell('stop').textContent).toContain('12,345.05');
    expect(cell('stop').textContent).toContain('×2');
    expect(cell('stop').textContent).toContain('trailing');
    expect(cell('target').textContent?.trim()).toBe('12,400.00');
    expect(cell('stop').classList.contains('num')).toBe(true);
    // Flat / Remove replace Add / Rev / Exit: a plain exit would leave the legs resting.
    expect(row().querySelector('button[aria-label^="Exit"]')).toBeNull();
    expect(row().querySelector('button[aria-label^="Flatten SBIN MIS"]')).not.toBeNull();
  });

  it('L edits the stop in the row: off the tick is refused in words, on the tick is sent', async () => {
    const { bridge } = await desk([bracket()]);
    bridge.answer('protection.modify', (input) => ({
      ok: true,
      value: bracket({ stop: leg({ price: input!.stop }) }),
    }));
    await press('l');
    const stop = box('New stop for SBIN MIS')!;
    expect(stop.value).toBe('890.00');
    expect(document.activeElement).toBe(stop);
    await fireEvent.input(stop, { target: { value: '893.33' } });
    await fireEvent.keyDown(stop, { key: 'Enter' });
    for (let i = 0; i < 4; i++) await flush();
    expect(screen.getByRole('alert').textContent).toContain(
      'Stop 893.33 is off the tick 0.05: 893.30 or 893.35',
    );
    expect(bridge.callsTo('protection.modify')).toEqual([]);

    await fireEvent.input(stop, { target: { value: '893.35' } });
    await fireEvent.keyDown(stop, { key: 'Enter' });
    for (let i = 0; i < 4; i++) await flush();
    expect(bridge.callsTo('protection.modify').map((c) => c.input)).toEqual([{ entry: 'E1', stop: 893.35 }]);
    expect(box('New stop for SBIN MIS')).toBeNull();
    expect(cell('stop').textContent).toContain('893.35');
  });

  it('T edits the target; Escape goes back and sends nothing', async () => {
    const { bridge } = await desk([bracket()]);
    await press('t');
    const target = box('New target for SBIN MIS')!;
    expect(target.value).toBe('920.00');
    await fireEvent.keyDown(target, { key: 'Escape' });
    await flush();
    expect(box('New target for SBIN MIS')).toBeNull();
    expect(bridge.callsTo('protection.modify')).toEqual([]);
  });

  it('F asks before a flatten and sends it on yes; U removes the protection', async () => {
    const { bridge } = await desk([bracket()]);
    bridge
      .answer('protection.flatten', () => ({
        ok: true,
        value: { orderid: 'F1', action: 'SELL', quantity: 10 },
      }))
      .answer('protection.remove', () => ({ ok: true, value: bracket({ state: 'closed' }) }));
    await press('f');
    const dialog = await screen.findByRole('alertdialog', { name: 'Flatten the position?' });
    expect(dialog.textContent).toContain('Sell 10 SBIN MIS at MARKET');
    expect(bridge.callsTo('protection.flatten')).toEqual([]);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Sell to flatten' }));
    for (let i = 0; i < 4; i++) await flush();
    expect(bridge.callsTo('protection.flatten').map((c) => c.input)).toEqual([{ entry: 'E1' }]);

    await press('u');
    expect(bridge.callsTo('protection.remove').map((c) => c.input)).toEqual([{ entry: 'E1' }]);
  });

  it('a row without protection says so on L, and keeps Add / Rev / Exit', async () => {
    await desk([]);
    await press('l');
    expect(screen.getByTestId('protection-notice').textContent).toContain('No stop on SBIN MIS to edit');
    expect(row().querySelector('button[aria-label^="Exit SBIN"]')).not.toBeNull();
  });
});

describe('a GTT bracket', () => {
  const CNC = { ...LONG, product: 'CNC' };
  const gttCell = (side: 'stop' | 'target') =>
    document.querySelector<HTMLElement>(`[data-row-key="NSE:SBIN:CNC"] [data-testid="protection-${side}"]`)!;
  const tagOf = (el: HTMLElement) => el.querySelector<HTMLElement>('[data-testid="protection-kind"]');

  it('tags its stop cell "GTT", titled where it rests; the target cell has no tag', async () => {
    await desk([bracket({ product: 'CNC', kind: 'gtt' })], [CNC]);
    const tag = tagOf(gttCell('stop'));
    expect(tag?.textContent).toBe('GTT');
    expect(tag?.getAttribute('title')).toBe('rests at the gateway as a GTT OCO');
    expect(gttCell('stop').textContent).toContain('890.00');
    expect(tagOf(gttCell('target'))).toBeNull();
    expect(gttCell('target').textContent?.trim()).toBe('920.00');
  });

  it('a core-held bracket has no tag; beside a GTT one the title counts them', async () => {
    await desk([bracket()]);
    expect(tagOf(cell('stop'))).toBeNull();
    document.body.replaceChildren();
    await desk(
      [
        bracket({ entry: 'A', product: 'CNC', kind: 'gtt' }),
        bracket({ entry: 'B', product: 'CNC', stop: leg({ price: 880 }) }),
      ],
      [CNC],
    );
    expect(tagOf(gttCell('stop'))?.getAttribute('title')).toBe(
      '1 of 2 brackets rest at the gateway as GTT OCOs; the others are core-held',
    );
  });
});

describe('an unprotected bracket', () => {
  it('turns its row red with UNPROTECTED and the reason, and R places the leg again', async () => {
    const { bridge } = await desk([unprotected()]);
    bridge.answer('protection.retry', () => ({ ok: true, value: bracket() }));
    expect(row().classList.contains('unprotected')).toBe(true);
    expect(row().textContent).toContain('UNPROTECTED');
    expect(row().querySelector('[data-testid="hazard-reason"]')!.textContent).toBe(
      'stop refused: price 889.99 is not a multiple of the tick',
    );
    // The words take the row's Stop to Strategy cells: no price to misread where no stop rests.
    expect(cell('stop')).toBeNull();

    await press('r');
    expect(bridge.callsTo('protection.retry').map((c) => c.input)).toEqual([{ entry: 'E1' }]);
    expect(row().classList.contains('unprotected')).toBe(false);
  });

  it('shows a banner that stays, with Retry', async () => {
    const { bridge } = await desk([unprotected()]);
    const banner = screen.getByTestId('protection-hazard');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('UNPROTECTED');
    expect(banner.textContent).toContain('SBIN MIS: 10 open without a stop');
    expect(banner.textContent).toContain('price 889.99 is not a multiple of the tick');
    bridge.answer('protection.retry', () => ({ ok: true, value: bracket() }));
    await fireEvent.click(within(banner).getByRole('button', { name: 'Retry the stop' }));
    for (let i = 0; i < 3; i++) await flush();
    expect(bridge.callsTo('protection.retry')).toHaveLength(1);
    expect(screen.queryByTestId('protection-hazard')).toBeNull();
  });

  it('an overshoot asks "flatten?" and sends nothing until pressed', async () => {
    const { bridge } = await desk([bracket({ state: 'overshoot', open: -3 })], [{ ...LONG, quantity: -3 }]);
    bridge.answer('protection.flatten', () => ({
      ok: true,
      value: { orderid: 'F2', action: 'BUY', quantity: 3 },
    }));
    const banner = screen.getByTestId('protection-hazard');
    expect(banner.textContent).toContain('SBIN MIS went past flat by 3: flatten?');
    for (let i = 0; i < 4; i++) await flush();
    expect(bridge.callsTo('protection.flatten')).toEqual([]);
    await fireEvent.click(within(banner).getByRole('button', { name: 'Flatten 3…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Flatten the position?' });
    expect(dialog.textContent).toContain('Buy 3 SBIN MIS at MARKET (went past flat by 3)');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Buy to flatten' }));
    for (let i = 0; i < 3; i++) await flush();
    expect(bridge.callsTo('protection.flatten').map((c) => c.input)).toEqual([{ entry: 'E1' }]);
  });
});
