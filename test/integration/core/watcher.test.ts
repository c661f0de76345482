// The watcher against the real paper gateway: market moves with setPrice and the paper ManualClock,
// polls are triggered by hand, faults come from the proxy.
import { describe, expect, it } from 'vitest';
import {
  LIMITS,
  orderEventNames,
  restingBuy,
  startCore,
  until,
  usePaper,
  type Paper,
} from '../../support/core-harness.js';

const paper = usePaper();

/** Moves the market through the limit and lets the engine match (one paper second later). */
function fillAt(i: ReturnType<Paper['inst']>, limit: number) {
  paper.gw.gateway.market.setPrice(i, paper.onTick(i, limit * 0.99));
  paper.gw.clock.advance(1000);
  paper.engine().tick();
}

describe('watcher', () => {
  it('reports a resting LIMIT that fills later exactly once, with one notification', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow(); // baseline
      const { i, limit, orderid } = await restingBuy(paper, h, 'SBIN', 1500);
      expect(orderEventNames(await h.during(() => h.core.pollNow()))).toEqual(['orders.accepted']);
      fillAt(i, limit);
      const fill = await h.during(() => h.core.pollNow());
      expect(orderEventNames(fill)).toEqual(['orders.filled', 'positions.changed']);
      expect(h.of('orders.filled')[0]?.order).toMatchObject({
        orderid,
        filledQuantity: 1500,
        status: 'complete',
      });
      await h.core.pollNow();
      await h.core.pollNow();
      expect(h.of('orders.filled')).toHaveLength(1);
      const fills = h.notifications.filter((n) => n.kind === 'fill');
      expect(fills).toHaveLength(1);
      const price = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2 }).format(limit);
      expect(fills[0]?.title).toBe(`BUY 1,500 SBIN @ ₹${price} filled`);
      expect(h.of('positions.changed')[0]).toMatchObject({
        previousQuantity: 0,
        position: { symbol: 'SBIN', quantity: 1500 },
      });
    } finally {
      await h.stop();
    }
  });

  it('reports a partial fill, then the fill, for a MARKET order larger than the book', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      const i = paper.inst('NSE', 'HDFCBANK');
      const shown = paper.gw.gateway.market.book(i).asks.reduce((s, l) => s + l.quantity, 0);
      const r = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'HDFCBANK',
        action: 'BUY',
        quantity: shown * 3,
        product: 'MIS',
      });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      const first = await h.during(() => h.core.pollNow());
      expect(orderEventNames(first)).toEqual(['orders.accepted', 'orders.partial', 'positions.changed']);
      expect(h.of('orders.partial')[0]).toMatchObject({ lastFillQuantity: shown });
      for (let n = 0; n < 20; n++) {
        paper.gw.clock.advance(1000);
        paper.engine().tick();
      }
      const rest = await h.during(() => h.core.pollNow());
      expect(orderEventNames(rest)).toEqual(['orders.filled', 'positions.changed']);
      expect(h.of('orders.filled')[0]).toMatchObject({ lastFillQuantity: shown * 2 });
      expect(h.notifications.map((n) => n.kind)).toEqual(['partial', 'fill']);
      expect(h.notifications[0]?.title).toMatch(
        /^BUY [\d,]+ of [\d,]+ HDFCBANK @ ₹[\d,]+\.\d{2,4} partially filled$/,
      );
    } finally {
      await h.stop();
    }
  });

  it('reports a fill made while the gateway was unreachable once, after it comes back', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      const { i, limit } = await restingBuy(paper, h, 'ITC', 10);
      await h.core.pollNow();
      paper.proxy.enqueue(
        [
          { kind: 'drop', forward: false },
          { kind: 'drop', forward: false },
        ],
        '/api/v1/orderbook',
      );
      const down = await h.during(() => h.core.pollNow());
      expect(down.map((e) => e.name)).toEqual(['session.connection']);
      expect(h.of('session.connection').at(-1)?.state).toBe('disconnected');
      expect(h.trays.at(-1)?.state).toBe('disconnected');
      fillAt(i, limit);
      expect(orderEventNames(await h.during(() => h.core.pollNow()))).toEqual([]);
      const back = await h.during(() => h.core.pollNow());
      expect(back[0]).toMatchObject({ name: 'session.connection', payload: { state: 'connected' } });
      expect(orderEventNames(back)).toEqual(['orders.filled', 'positions.changed']);
      await h.core.pollNow();
      expect(h.of('orders.filled')).toHaveLength(1);
      expect(h.notifications.filter((n) => n.kind === 'fill')).toHaveLength(1);
    } finally {
      await h.stop();
    }
  });

  it('gives no events for old fills after a restart, and reports fills made while it was down', async () => {
    const first = await startCore(paper);
    const { dataDir, keychain } = first;
    await first.core.router.invoke('settings.update', LIMITS);
    const a = await restingBuy(paper, first, 'TCS', 2);
    const b = await restingBuy(paper, first, 'INFY', 3);
    await first.core.pollNow();
    fillAt(a.i, a.limit);
    await first.core.pollNow();
    expect(first.of('orders.filled')).toHaveLength(1);
    await first.core.stop();

    fillAt(b.i, b.limit); // while no core runs
    const second = await startCore(paper, { dataDir, keychain });
    try {
      const events = await second.during(() => second.core.pollNow());
      const filled = events.filter((e) => e.name === 'orders.filled');
      expect(filled).toHaveLength(1);
      expect(filled[0]?.payload).toMatchObject({ order: { orderid: b.orderid } });
      expect(orderEventNames(events)).not.toContain('orders.accepted');
      expect(orderEventNames(await second.during(() => second.core.pollNow()))).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it('reconciles a timed-out placeorder from the order book without sending it again', async () => {
    const h = await startCore(paper);
    try {
      await h.core.pollNow();
      const sentBefore = paper.proxy.forwardedTo('/api/v1/placeorder');
      paper.proxy.enqueue({ kind: 'delay', ms: 3000 }, '/api/v1/placeorder');
      const pending = h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'WIPRO',
        action: 'BUY',
        quantity: 7,
        product: 'MIS',
      });
      await until(() => paper.proxy.forwardedTo('/api/v1/placeorder') === sentBefore + 1);
      await h.clock.advance(16_000); // past the client's mutation timeout
      const r = await pending;
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      expect(h.of('orders.unknown')).toHaveLength(1);
      const unknown = h.of('orders.unknown')[0];
      await h.core.pollNow();
      const reconciled = h.of('orders.reconciled');
      expect(reconciled).toHaveLength(1);
      expect(reconciled[0]).toMatchObject({
        found: true,
        operation: 'placeorder',
        journalId: unknown?.journalId,
      });
      expect(reconciled[0]?.orderid).toMatch(/^\d+$/);
      expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(sentBefore + 1);
      const journal = await h.core.router.invoke('journal.query', { operation: 'placeorder' });
      expect(journal.ok && journal.value[0]?.outcome).toBe('unknown');
    } finally {
      await h.stop();
    }
  });

  it('concludes "not placed" for a dropped placeorder that never reached the gateway', async () => {
    const h = await startCore(paper);
    try {
      await h.core.pollNow();
      const sentBefore = paper.proxy.forwardedTo('/api/v1/placeorder');
      paper.proxy.enqueue({ kind: 'drop', forward: false }, '/api/v1/placeorder');
      const r = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'WIPRO',
        action: 'SELL',
        quantity: 3,
        product: 'MIS',
      });
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toEqual([]); // one read is not enough to say "not placed"
      await h.clock.advance(6000);
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toMatchObject([{ found: false, operation: 'placeorder' }]);
      expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(sentBefore);
      expect(orderEventNames(h.events)).not.toContain('orders.accepted');
    } finally {
      await h.stop();
    }
  });

  it('reconciles a split whose answer was dropped from its children in the book, sending nothing again', async () => {
    const h = await startCore(paper);
    try {
      await h.core.pollNow();
      const sentBefore = paper.proxy.forwardedTo('/api/v1/splitorder');
      paper.proxy.enqueue({ kind: 'drop' }, '/api/v1/splitorder'); // forwarded, answer lost
      const r = await h.core.router.invoke('orders.split', {
        exchange: 'NSE',
        symbol: 'WIPRO',
        action: 'BUY',
        quantity: 25,
        splitsize: 10,
        product: 'MIS',
      });
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      expect(h.of('orders.unknown')).toMatchObject([{ operation: 'splitorder' }]);
      const journalId = h.of('orders.unknown')[0]?.journalId;
      await h.core.pollNow();
      const reconciled = h.of('orders.reconciled');
      expect(reconciled).toMatchObject([{ found: true, operation: 'splitorder', journalId }]);
      const ids = reconciled[0]?.orderids ?? [];
      expect(ids).toHaveLength(3);
      const book = h.of('books.orders').at(-1)?.view.orders ?? [];
      const children = book.filter((o) => ids.includes(o.orderid));
      expect(children.map((o) => [o.symbol, o.action, o.quantity])).toEqual(
        expect.arrayContaining([
          ['WIPRO', 'BUY', 10],
          ['WIPRO', 'BUY', 10],
          ['WIPRO', 'BUY', 5],
        ]),
      );
      expect(children).toHaveLength(3);
      await h.clock.advance(6000);
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toHaveLength(1);
      expect(paper.proxy.forwardedTo('/api/v1/splitorder')).toBe(sentBefore + 1);
      const journal = await h.core.router.invoke('journal.query', { operation: 'splitorder' });
      expect(journal.ok && journal.value[0]?.resolution).toMatchObject({ found: true });
    } finally {
      await h.stop();
    }
  });

  it('reconciles a cancel-all whose answer was dropped from the orders that were open before it', async () => {
    const h = await startCore(paper);
    try {
      const { orderid } = await restingBuy(paper, h, 'INFY', 4);
      // Another strategy's order: the gateway's cancel-all is account-wide, so it is cancelled too.
      const i = paper.inst('NSE', 'INFY');
      const other = await h.core.router.invoke('orders.place', {
        strategy: 'Other',
        exchange: 'NSE',
        symbol: 'INFY',
        action: 'BUY',
        quantity: 2,
        pricetype: 'LIMIT',
        price: paper.onTick(i, paper.ltp(i) * 0.96),
        product: 'MIS',
      });
      if (!other.ok) throw new Error(JSON.stringify(other.error));
      await h.core.pollNow();
      paper.proxy.enqueue({ kind: 'drop' }, '/api/v1/cancelallorder');
      const r = await h.core.router.invoke('orders.cancelAll', {});
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toMatchObject([
        {
          found: true,
          operation: 'cancelallorder',
          orderids: expect.arrayContaining([orderid, other.value.orderid]),
          message: expect.stringMatching(/^all 2 open orders are cancelled/),
        },
      ]);
    } finally {
      await h.stop();
    }
  });

  it('reports a rejection with its reason as a sticky notification', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      const i = paper.inst('NSE', 'RELIANCE');
      const limit = paper.onTick(i, paper.ltp(i) * 0.95);
      const r = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'RELIANCE',
        action: 'BUY',
        // Delivery needs the full value (₹1 crore of paper capital): refused for funds.
        quantity: 30_000,
        pricetype: 'LIMIT',
        price: limit,
        product: 'CNC',
      });
      expect(r, JSON.stringify(r)).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
      await h.core.pollNow();
      const rejected = h.of('orders.rejected');
      expect(rejected).toHaveLength(1);
      expect(rejected[0]?.reason).toMatch(/Insufficient funds/);
      const note = h.notifications.find((n) => n.kind === 'rejection');
      expect(note).toMatchObject({ sticky: true });
      expect(note?.title).toMatch(/^BUY 30,000 RELIANCE @ ₹[\d,]+\.\d{2} rejected$/);
      expect(h.trays.at(-1)?.state).toBe('alert');
    } finally {
      await h.stop();
    }
  });
});
