// The Journal pane: its search (symbol, strategy, order id, IST day → journal.query), one entry read
// as an order line, the detail's request and response as JSON, and the CSV export's report.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { JournalEntry, JournalQuery } from '@contract';
import {
  istDay,
  istDayRange,
  journalExportOf,
  journalLine,
  journalQueryOf,
} from '../../../src-renderer/src/lib/journal-filter';
import Journal from '../../../src-renderer/src/panes/Journal.svelte';
import { JOURNAL } from '../../../src-renderer/src/state/context';
import { JournalState } from '../../../src-renderer/src/state/journal.svelte';
import { installLayout } from '../../support/component/jsdom-layout';
import { flush } from '../../support/component/books-fixtures';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';

beforeAll(() => installLayout());

const form = (f: Partial<{ symbol: string; strategy: string; orderId: string; day: string }>) => ({
  symbol: '',
  strategy: '',
  orderId: '',
  day: '',
  ...f,
});

describe('journal search logic', () => {
  it('an IST day runs from its 00:00 IST (18:30 UTC the day before) for 24 hours', () => {
    expect(istDayRange('23-11-2026')).toEqual({
      from: Date.UTC(2026, 10, 22, 18, 30),
      to: Date.UTC(2026, 10, 23, 18, 30),
    });
    // 23:59 UTC on the 22nd is already the 23rd in India.
    expect(istDay(Date.UTC(2026, 10, 22, 23, 59))).toBe('23-11-2026');
    expect(istDay(Date.UTC(2026, 10, 22, 18, 29))).toBe('22-11-2026');
    expect(istDay(Date.UTC(2026, 0, 4, 12, 0))).toBe('04-01-2026');
    // dd-mm-yyyy, as the desk writes dates: one digit, / and . taken; the ISO form and no-days refused.
    expect(istDayRange('4/1/2026')).toEqual(istDayRange('04-01-2026'));
    expect(istDayRange('04.01.2026')).toEqual(istDayRange('04-01-2026'));
    expect(istDayRange('30-02-2026')).toBeUndefined();
    expect(istDayRange('2026-11-23')).toBeUndefined();
    expect(istDayRange('11-23-2026')).toBeUndefined();
  });

  it('the form becomes the query: symbol upper-cased, blanks left out, newest first', () => {
    expect(journalQueryOf(form({ symbol: ' sbin ', strategy: 'Scalp', orderId: '', day: '' }))).toEqual({
      ok: true,
      query: { order: 'desc', symbol: 'SBIN', strategy: 'Scalp' },
    });
    const r = journalQueryOf(form({ orderId: '2411230001', day: '23-11-2026' }), 500);
    expect(r).toEqual({
      ok: true,
      query: {
        order: 'desc',
        limit: 500,
        orderId: '2411230001',
        from: Date.UTC(2026, 10, 22, 18, 30),
        to: Date.UTC(2026, 10, 23, 18, 30),
      },
    });
  });

  it('a bad field is refused by name and reason', () => {
    expect(journalQueryOf(form({ day: '01-13-2026' }))).toEqual({
      ok: false,
      field: 'day',
      message: 'Date: 01-13-2026 is not a calendar day (dd-mm-yyyy, IST)',
    });
    expect(journalQueryOf(form({ day: '2026-11-23' }))).toEqual({
      ok: false,
      field: 'day',
      message: 'Date: write the day as dd-mm-yyyy (IST), e.g. 23-11-2026, not "2026-11-23"',
    });
    const long = journalQueryOf(form({ strategy: 'x'.repeat(65) }));
    expect(long).toMatchObject({ ok: false, field: 'strategy' });
  });

  it('the export takes the same filters, oldest first, without paging', () => {
    const q: JournalQuery = { order: 'desc', limit: 2000, symbol: 'SBIN', from: 1, to: 2 };
    expect(journalExportOf(q)).toEqual({ symbol: 'SBIN', from: 1, to: 2, order: 'asc' });
  });

  it('an entry reads as an order line; a basket as its legs', () => {
    expect(
      journalLine(
        entry({
          request: {
            symbol: 'SBIN',
            exchange: 'NSE',
            action: 'BUY',
            quantity: '10',
            pricetype: 'MARKET',
            product: 'MIS',
            price: '0',
            strategy: 'Desk',
          },
        }),
      ),
    ).toEqual({
      action: 'Place',
      side: 'BUY',
      instrument: 'SBIN',
      exchange: 'NSE',
      quantity: 10,
      price: 'MARKET',
      product: 'MIS',
      strategy: 'Desk',
    });
    const basket = journalLine(
      entry({
        operation: 'basketorder',
        request: { orders: [{ symbol: 'SBIN' }, { symbol: 'INFY' }, { symbol: 'TCS' }], strategy: 'B' },
      }),
    );
    expect(basket).toEqual({ action: 'Basket', instrument: '3 legs: SBIN, INFY…', strategy: 'B' });
  });
});

let n = 0;
function entry(e: Partial<JournalEntry> = {}): JournalEntry {
  n += 1;
  return {
    id: `e${n}`,
    time: Date.UTC(2026, 10, 23, 4, 0, n),
    profileId: 'paper',
    operation: 'placeorder',
    request: { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 1, pricetype: 'MARKET' },
    orderIds: [`OID${n}`],
    outcome: 'ok',
    finishedAt: Date.UTC(2026, 10, 23, 4, 0, n) + 40,
    durationMs: 40,
    response: { status: 'success', orderid: `OID${n}` },
    ...e,
  };
}

const rowEls = () => [
  ...screen.getByRole('grid', { name: 'Journal entries' }).querySelectorAll<HTMLElement>('[data-row-key]'),
];

function setup(entries: JournalEntry[]) {
  const bridge = new FakeBridge()
    .answer('journal.query', () => ({ ok: true, value: entries }))
    .answer('journal.exportCsv', () => ({
      ok: true,
      value: { kind: 'saved', path: '/data/exports/orderdesk-journal-paper-2026-11-23.csv', rows: 2 },
    }));
  const journal = new JournalState(bridge, { now: () => Date.UTC(2026, 10, 23, 6, 0) });
  render(Journal, { context: deskContext(bridge, [[JOURNAL, journal]]) });
  return { bridge, journal };
}

describe('Journal pane', () => {
  const sell = entry({
    request: {
      symbol: 'INFY',
      exchange: 'NSE',
      action: 'SELL',
      quantity: 5,
      pricetype: 'LIMIT',
      price: 1510.05,
      strategy: 'Desk',
    },
    outcome: 'error',
    error: { kind: 'gateway', message: 'Insufficient funds', httpStatus: 400 },
    response: undefined,
    orderIds: [],
  });
  const buy = entry();

  it("opens on today's IST day, newest first as the journal answers, sides in words", async () => {
    const { bridge } = setup([sell, buy]);
    await flush();
    expect(bridge.callsTo('journal.query')[0]?.input).toEqual({
      order: 'desc',
      limit: 2000,
      from: Date.UTC(2026, 10, 22, 18, 30),
      to: Date.UTC(2026, 10, 23, 18, 30),
    });
    const rows = rowEls();
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toMatch(/Place\s*SELL\s*INFY/);
    expect(rows[0]?.textContent).toContain('1,510.05');
    expect(rows[0]?.textContent).toContain('Error: gateway');
    expect(rows[1]?.textContent).toMatch(/Place\s*BUY\s*SBIN/);
    expect(screen.getByTestId('journal-status').textContent).toMatch(/2 entries · 23-Nov-2026/);
  });

  it('searches by symbol, strategy and order id over all days when the date is cleared', async () => {
    const { bridge } = setup([buy]);
    await flush();
    await fireEvent.input(screen.getByLabelText('Symbol'), { target: { value: 'sbin' } });
    await fireEvent.input(screen.getByLabelText('Strategy'), { target: { value: 'Desk' } });
    await fireEvent.input(screen.getByLabelText('Order ID'), { target: { value: 'OID7' } });
    await fireEvent.input(screen.getByLabelText('Date (IST)'), { target: { value: '' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await flush();
    expect(bridge.callsTo('journal.query').at(-1)?.input).toEqual({
      order: 'desc',
      limit: 2000,
      symbol: 'SBIN',
      strategy: 'Desk',
      orderId: 'OID7',
    });
    expect(screen.getByTestId('journal-status').textContent).toContain('all days');
  });

  it('Enter on a row shows its request and response as JSON; Esc goes back to the row', async () => {
    setup([sell, buy]);
    await flush();
    const row = rowEls()[0]!;
    row.focus();
    await fireEvent.keyDown(row, { key: 'Enter' });
    await flush();
    const request = JSON.parse(screen.getByTestId('journal-request').textContent ?? '');
    expect(request).toEqual(sell.request);
    expect(screen.getByTestId('journal-request').textContent).toContain('\n  "symbol": "INFY"');
    // No response: the error is what came back.
    expect(JSON.parse(screen.getByTestId('journal-response').textContent ?? '')).toEqual(sell.error);
    expect(screen.getByTestId('journal-detail').textContent).toContain('Insufficient funds (HTTP 400)');
    await fireEvent.keyDown(screen.getByRole('button', { name: /Back/ }), { key: 'Escape' });
    await flush();
    expect(screen.queryByTestId('journal-detail')).toBeNull();
    expect(document.activeElement?.getAttribute('data-row-key')).toBe(sell.id);
  });

  it('exports the search shown (oldest first) and says where and how many rows', async () => {
    const { bridge } = setup([sell, buy]);
    await flush();
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await flush();
    expect(bridge.callsTo('journal.exportCsv')[0]?.input).toEqual({
      order: 'asc',
      from: Date.UTC(2026, 10, 22, 18, 30),
      to: Date.UTC(2026, 10, 23, 18, 30),
    });
    expect(screen.getByTestId('journal-export').textContent).toBe(
      'Exported 2 rows to /data/exports/orderdesk-journal-paper-2026-11-23.csv',
    );
  });

  it('a cancelled save dialog and a refused export are said, not silent', async () => {
    const { bridge } = setup([buy]);
    await flush();
    bridge.answer('journal.exportCsv', () => ({ ok: true, value: { kind: 'cancelled' } }));
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await flush();
    expect(screen.getByTestId('journal-export').textContent).toBe('Export cancelled: nothing was written');
    bridge.answer('journal.exportCsv', () => ({
      ok: false,
      error: { kind: 'io', message: 'the journal could not be saved to /x.csv (EACCES)' },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await flush();
    expect(screen.getByTestId('journal-export').textContent).toBe(
      'Export failed: the journal could not be saved to /x.csv (EACCES)',
    );
  });

  it('rereads the search after order activity, once per quiet spell', async () => {
    const later = entry();
    let answer = [buy];
    const bridge = new FakeBridge().answer('journal.query', () => ({ ok: true, value: answer }));
    const journal = new JournalState(bridge, { now: () => Date.UTC(2026, 10, 23, 6, 0) });
    render(Journal, { context: deskContext(bridge, [[JOURNAL, journal]]) });
    await flush();
    expect(rowEls()).toHaveLength(1);
    answer = [later, buy];
    const filled = { seq: 1, profileId: 'paper', time: 0, orderid: 'OID', symbol: 'SBIN', exchange: 'NSE' };
    // The quiet spell on a moved clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      bridge.emit('orders.filled', filled as never);
      bridge.emit('orders.filled', { ...filled, seq: 2 } as never);
      await vi.advanceTimersByTimeAsync(500);
    } finally {
      vi.useRealTimers();
    }
    await flush();
    expect(bridge.callsTo('journal.query')).toHaveLength(2);
    expect(rowEls().map((r) => r.dataset.rowKey)).toEqual([later.id, buy.id]);
  });

  it('a bad date is refused by its field and nothing is asked of the journal', async () => {
    const { bridge, journal } = setup([buy]);
    await flush();
    const before = bridge.callsTo('journal.query').length;
    journal.form.day = '30-02-2026';
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await flush();
    expect(bridge.callsTo('journal.query')).toHaveLength(before);
    expect(screen.getByRole('alert').textContent).toContain(
      '30-02-2026 is not a calendar day (dd-mm-yyyy, IST)',
    );
    expect(screen.getByLabelText('Date (IST)').getAttribute('aria-invalid')).toBe('true');
  });
});
