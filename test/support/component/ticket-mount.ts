// The ticket pane rendered as App renders it, over a desk fixture whose funds cover every order a
// ticket test sends (so the funds check passes without a word), opened on one instrument.
import { render } from '@testing-library/svelte';
import type { Action, IpcResult, OrderIdResponse, SymbolInfo } from '@contract';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import type { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { BOOKS } from '../../../src-renderer/src/state/context';
import { deskFixture, settle, type DeskFixture, type FixtureOptions } from './desk-fixture';

export interface TicketMount {
  /** The instruments the desk knows; the first is the one the ticket opens on unless `open` says. */
  instruments: SymbolInfo[];
  open?: SymbolInfo;
  side?: Action;
  lastPrice?: number;
  options?: FixtureOptions;
  /** Runs on the fixture before the ticket renders (settings a test needs at mount). */
  before?: (f: DeskFixture) => void;
}

export async function mountTicketPane(m: TicketMount) {
  const f = deskFixture({ ...m.options, instruments: m.instruments });
  const books = f.context.get(BOOKS) as BooksState;
  books.funds = {
    availableCash: '100000000.00',
    collateral: '0.00',
    realisedMtm: '0.00',
    unrealisedMtm: '0.00',
    utilisedDebits: '0.00',
  };
  m.before?.(f);
  const view = render(Ticket, { context: f.context });
  const open = m.open ?? m.instruments[0];
  if (!open) throw new Error('no instrument to open the ticket on');
  await f.ticket.open(
    m.side ?? 'BUY',
    { symbol: open.symbol, exchange: open.exchange },
    { lastPrice: m.lastPrice ?? 905.3 },
  );
  await settle();
  return { ...f, books, view };
}

/** The gateway's answer to a placed order. */
export const placed = (id: string): IpcResult<OrderIdResponse> => ({
  ok: true,
  value: { status: 'success', orderid: id },
});
