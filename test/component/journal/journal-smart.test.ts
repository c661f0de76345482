// A smart order in the journal shows the quantity the gateway placed (its order in the order book),
// never the quantity asked for: a reverse asked as "1 to −75" placed 150; "already matched" placed 0;
// another day's entry (no order book) shows its target position instead.
import { render } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '@contract';
import { journalLine } from '../../../src-renderer/src/lib/journal-filter';
import Journal from '../../../src-renderer/src/panes/Journal.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { BOOKS, JOURNAL } from '../../../src-renderer/src/state/context';
import { JournalState } from '../../../src-renderer/src/state/journal.svelte';
import { flush, order, ordersView, snapshot } from '../../support/component/books-fixtures';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());

const T = Date.UTC(2026, 10, 23, 4, 0, 0);
const smart = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  id: 's1',
  time: T,
  profileId: 'paper',
  operation: 'placesmartorder',
  request: {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'SELL',
    quantity: 1,
    position_size: -75,
    pricetype: 'MARKET',
    product: 'MIS',
  },
  orderIds: ['SM1'],
  outcome: 'ok',
  finishedAt: T + 30,
  durationMs: 30,
  response: { status: 'success', orderid: 'SM1' },
  ...over,
});

describe("a smart order's journal line", () => {
  it('takes the quantity of the order the gateway placed', () => {
    const line = journalLine(smart(), (id) => (id === 'SM1' ? 150 : undefined));
    expect(line).toMatchObject({ action: 'Smart', side: 'SELL', quantity: 150, target: -75 });
  });

  it('is 0 when the gateway answered without an order (already matched)', () => {
    const line = journalLine(
      smart({ response: { status: 'success', message: 'Positions Already Matched. No Action needed.' } }),
      () => undefined,
    );
    expect(line.quantity).toBe(0);
  });

  it('never shows the asked quantity: without the order book it has only the target', () => {
    const line = journalLine(smart(), () => undefined);
    expect(line.quantity).toBeUndefined();
    expect(line.target).toBe(-75);
    // A plain order keeps its own quantity.
    expect(journalLine({ ...smart(), operation: 'placeorder' }).quantity).toBe(1);
  });

  it('the Journal pane reads the placed quantity from the order book', async () => {
    const bridge = new FakeBridge()
      .answer('journal.query', () => ({ ok: true, value: [smart()] }))
      .answer('session.snapshot', () => ({
        ok: true,
        value: snapshot({ orders: ordersView([order({ orderid: 'SM1', quantity: 150, action: 'SELL' })]) }),
      }));
    const books = new BooksState(bridge);
    books.start();
    const journal = new JournalState(bridge, { now: () => T });
    render(Journal, {
      context: deskContext(bridge, [
        [JOURNAL, journal],
        [BOOKS, books],
      ]),
    });
    for (let i = 0; i < 6; i++) await flush();
    const grid = document.querySelector('[role="grid"][aria-label="Journal entries"]')!;
    const row = grid.querySelector<HTMLElement>('[data-row-key="s1"]')!;
    const cells = [...row.querySelectorAll('[role="gridcell"]')].map((c) => c.textContent?.trim());
    expect(cells).toContain('150');
    expect(cells).not.toContain('1');
  });
});
