import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '@contract';
import { BooksState, countOrders } from '../../../src-renderer/src/state/books.svelte';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';
import { flush, order, ordersView, position, snapshot } from '../../support/component/books-fixtures';

function setup(snaps: SessionSnapshot[]) {
  const b = new FakeBridge();
  let i = 0;
  b.answer('session.snapshot', () => ({ ok: true, value: snaps[Math.min(i++, snaps.length - 1)]! }));
  const books = new BooksState(b);
  const stop = books.start();
  return { b, books, stop };
}

const ordersEvent = (seq: number, ids: string[], profileId = 'paper') => ({
  seq,
  profileId,
  view: ordersView(ids.map((orderid) => order({ orderid }))),
});

describe('BooksState', () => {
  it('starts from session.snapshot, then applies the next numbered books.* events wholesale', async () => {
    const { b, books } = setup([snapshot({ seq: 10, orders: ordersView([order({ orderid: 'A' })]) })]);
    await flush();
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['A']);
    expect(books.seq).toBe(10);

    const first = books.orders;
    b.emit('books.orders', ordersEvent(11, ['A', 'B']));
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['A', 'B']);
    expect(books.orders).not.toBe(first);
    b.emit('books.positions', {
      seq: 12,
      profileId: 'paper',
      view: { positions: [position()], totalMtm: 53 },
    });
    expect(books.positions?.totalMtm).toBe(53);
    expect(books.seq).toBe(12);
    expect(b.callsTo('session.snapshot')).toHaveLength(1);
  });

  it('skips an event the snapshot already reflects', async () => {
    const { b, books } = setup([snapshot({ seq: 10, orders: ordersView([order({ orderid: 'NEW' })]) })]);
    await flush();
    b.emit('books.orders', ordersEvent(9, ['OLD']));
    b.emit('books.orders', ordersEvent(10, ['OLD']));
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['NEW']);
  });

  it('counts every bus event: market ticks between book events are no gap', async () => {
    const { b, books } = setup([snapshot({ seq: 10 })]);
    await flush();
    b.emit('market.ltp', { seq: 11, profileId: 'paper', time: 1, symbol: 'SBIN', exchange: 'NSE', ltp: 905 });
    b.emit('alerts.state', { seq: 12, paused: false, muted: [], sticky: [] });
    b.emit('books.orders', ordersEvent(13, ['X']));
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['X']);
    expect(b.callsTo('session.snapshot')).toHaveLength(1);
  });

  it('a skipped seq reloads the snapshot instead of applying the event after the gap', async () => {
    const { b, books } = setup([
      snapshot({ seq: 10, orders: ordersView([order({ orderid: 'A' })]) }),
      snapshot({ seq: 14, orders: ordersView([order({ orderid: 'A' }), order({ orderid: 'FROM-SNAP' })]) }),
    ]);
    await flush();
    b.emit('books.orders', ordersEvent(13, ['AFTER-GAP']));
    await flush();
    expect(b.callsTo('session.snapshot')).toHaveLength(2);
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['A', 'FROM-SNAP']);
    expect(books.seq).toBe(14);
    expect(books.snapshots).toBe(2);
    // And it carries on from the new snapshot's number.
    b.emit('books.orders', ordersEvent(15, ['NEXT']));
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['NEXT']);
  });

  it('events heard while the snapshot loads: those after its seq are applied, older ones dropped', async () => {
    const b = new FakeBridge();
    const answer = deferred<{ ok: true; value: SessionSnapshot }>();
    b.answer('session.snapshot', () => answer.promise);
    const books = new BooksState(b);
    books.start();
    b.emit('books.orders', ordersEvent(11, ['OLD']));
    b.emit('books.orders', ordersEvent(12, ['NEWER']));
    b.emit('books.orders', ordersEvent(13, ['NEWEST']));
    answer.resolve({
      ok: true,
      value: snapshot({ seq: 12, orders: ordersView([order({ orderid: 'SNAP' })]) }),
    });
    await flush();
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['NEWEST']);
    expect(books.seq).toBe(13);
    expect(b.callsTo('session.snapshot')).toHaveLength(1);
  });

  it("ignores another profile's books and reloads on a profile switch", async () => {
    const { b, books } = setup([
      snapshot({ seq: 10, orders: ordersView([order({ orderid: 'PAPER' })]) }),
      snapshot({
        seq: 12,
        profile: { ...snapshot().profile, id: 'zerodha', kind: 'gateway' },
        orders: ordersView([order({ orderid: 'LIVE' })]),
      }),
    ]);
    await flush();
    b.emit('books.orders', ordersEvent(11, ['OTHER'], 'zerodha'));
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['PAPER']);
    b.emit('profiles.switched', { seq: 12, profileId: 'zerodha' });
    await flush();
    expect(books.profileId).toBe('zerodha');
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['LIVE']);
  });

  it('an order with an unknown outcome is reconciling until orders.reconciled settles it', async () => {
    const { b, books } = setup([snapshot({ seq: 10 })]);
    await flush();
    b.emit('orders.unknown', {
      seq: 11,
      profileId: 'paper',
      time: 1,
      journalId: 'j1',
      operation: 'cancelorder',
      orderid: 'O1',
      message: 'timed out',
    });
    expect(books.reconcilingFor('O1')?.message).toBe('timed out');
    b.emit('orders.reconciled', {
      seq: 12,
      profileId: 'paper',
      time: 2,
      journalId: 'j1',
      operation: 'cancelorder',
      found: true,
      orderid: 'O1',
      message: 'cancelled',
    });
    expect(books.reconcilingFor('O1')).toBeUndefined();
  });

  it('a refused snapshot is shown, and the next event tries again', async () => {
    const b = new FakeBridge();
    let ok = false;
    b.answer('session.snapshot', () =>
      ok
        ? { ok: true, value: snapshot({ seq: 20, orders: ordersView([order({ orderid: 'BACK' })]) }) }
        : { ok: false, error: { kind: 'network', message: 'host unreachable' } },
    );
    const books = new BooksState(b);
    books.start();
    await flush();
    expect(books.problem).toBe('Books: host unreachable');
    ok = true;
    b.emit('books.orders', ordersEvent(21, ['IGNORED']));
    await flush();
    expect(books.problem).toBeUndefined();
    expect(books.orders?.orders.map((o) => o.orderid)).toEqual(['BACK']);
  });

  it('holdings are read on demand; a refusal is kept as a typed error', async () => {
    const { b, books } = setup([snapshot()]);
    b.answer('books.holdings', () => ({
      ok: false,
      error: { kind: 'not_offered', message: 'no holdings here' },
    }));
    await books.loadHoldings();
    expect(books.holdingsError?.kind).toBe('not_offered');
    expect(books.holdings).toBeUndefined();
  });
});

describe('countOrders', () => {
  it('counts each filter by status, with trigger pending and unknown statuses in all only', () => {
    const c = countOrders([
      order({ status: 'open' }),
      order({ status: 'open' }),
      order({ status: 'trigger pending' }),
      order({ status: 'complete' }),
      order({ status: 'rejected' }),
      order({ status: 'cancelled' }),
      order({ status: 'Cancelled' }),
      order({ status: 'unknown' }),
    ]);
    expect(c).toEqual({ all: 8, open: 2, trigger: 1, complete: 1, rejected: 1, cancelled: 2 });
  });
});
