// The Positions pane grouped by strategy (in the books panel, where the strategies are followed):
// off by default; "Group: strategy" (or G on a row) puts each strategy with open legs under a header
// row with its P&L, stop and target, then Other positions; without the strategies (the narrow list)
// there is no toggle.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PositionView, StrategyView } from '@contract';
import Positions from '../../../src-renderer/src/panes/Positions.svelte';
import { legView, strategyView } from '../../support/component/strategy-views';
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
import { STRATEGIES, StrategiesState } from '../../../src-renderer/src/state/strategies.svelte';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import { flush, position, snapshot } from '../../support/component/books-fixtures';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());
let stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops) s();
  stops = [];
  document.body.replaceChildren();
});

const CE = 'NIFTY25NOV2624000CE';
const POSITIONS: PositionView[] = [
  position({
    symbol: CE,
    exchange: 'NFO',
    product: 'NRML',
    quantity: -150,
    averagePrice: 100,
    ltp: 90,
    mtm: 1500,
  }),
  position({
    symbol: 'SBIN',
    exchange: 'NSE',
    product: 'MIS',
    quantity: 10,
    averagePrice: 900,
    ltp: 905,
    mtm: 50,
  }),
];
const CONDOR: StrategyView = strategyView({ product: 'NRML', legs: [legView({ symbol: CE })], stop: 2000 });

async function mount(withStrategies = true) {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({ positions: { positions: POSITIONS, totalMtm: 1550 } }),
    }))
    .answer('protection.brackets', () => ({ ok: true, value: { profileId: 'paper', brackets: [] } }))
    .answer('strategies.list', () => ({ ok: true, value: { profileId: 'paper', strategies: [CONDOR] } }))
    .answer('settings.get', () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }));
  const books = new BooksState(b);
  const confirm = new ConfirmState();
  const protection = new ProtectionState(b, { confirm, asks: () => false });
  const strategies = new StrategiesState(b, { confirm });
  const context = deskContext(b, [
    [BOOKS, books],
    [CONFIRM, confirm],
    [TICKET, new TicketState(b)],
    [MARKET, new MarketState(b)],
    [ORDER_ACTIONS, new OrderActions(b, confirm)],
    [CLOSE_ALL, new CloseAllFlow(b, confirm)],
    [PROTECTION, protection],
    [HOTKEYS, new HotkeysState()],
    ...(withStrategies ? ([[STRATEGIES, strategies]] as const) : []),
  ]);
  stops.push(books.start(), protection.start(), strategies.start());
  render(Positions, { context });
  for (let i = 0; i < 6; i++) await flush();
}

const keys = () => [...document.querySelectorAll<HTMLElement>('[data-row-key]')].map((r) => r.dataset.rowKey);

describe('positions grouped by strategy', () => {
  it('groups on the toggle: the header, its share of the leg, then Other positions with the rest', async () => {
    await mount();
    expect(keys()).toEqual([`NFO:${CE}:NRML`, 'NSE:SBIN:MIS']);
    const toggle = screen.getByRole('button', { name: 'Group: strategy' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(keys()).toEqual([
      `strategy:s1`,
      `strategy:s1:NFO:${CE}:NRML`,
      'other',
      `NFO:${CE}:NRML`,
      'NSE:SBIN:MIS',
    ]);
    const head = document.querySelector<HTMLElement>('[data-row-key="strategy:s1"]')!;
    expect(head.textContent).toMatch(/Short call/);
    expect(head.querySelector('[data-testid="group-pnl"]')?.textContent).toBe('+₹750.00');
    expect(head.textContent).toMatch(/−₹2,000\.00/);
    // The strategy's share: −75 of the net −150, said in the title.
    const share = document.querySelector<HTMLElement>(`[data-row-key="strategy:s1:NFO:${CE}:NRML"] .qty`)!;
    expect(share.textContent).toMatch(/-75/);
    expect(share.title).toMatch(/Short call holds -75 .* \(net -150\); -75 outside strategies/);
    const rest = document.querySelector<HTMLElement>(`[data-row-key="NFO:${CE}:NRML"] .qty`)!;
    expect(rest.textContent).toMatch(/-75/);
  });

  it('G on a row toggles the grouping', async () => {
    await mount();
    const row = document.querySelector<HTMLElement>('[data-row-key="NSE:SBIN:MIS"]')!;
    row.focus();
    await fireEvent.keyDown(row, { key: 'g' });
    expect(screen.getByRole('button', { name: 'Group: strategy' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('has no toggle without the strategies (the narrow list)', async () => {
    await mount(false);
    expect(screen.queryByRole('button', { name: 'Group: strategy' })).toBeNull();
  });
});
