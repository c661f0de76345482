// One OS notification per split or basket, through the core against the paper gateway under the
// default `os` rules: a split of 105 by 20 that fills makes one notification for its six orders, a
// rejected child raises it at once, a basket of three makes one, and a plain order's fill stays one
// of its own.
import { expect, it } from 'vitest';
import { LIMITS, startCore, until, usePaper, type Harness } from '../../support/core-harness.js';
import { GROUP_WINDOW_MS } from '../../../src-main/core/alerts/notify-groups.js';

const paper = usePaper();

async function withCore(fn: (h: Harness) => Promise<void>) {
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    await h.core.pollNow();
    await fn(h);
  } finally {
    await h.stop();
  }
}

const market = { exchange: 'NSE', action: 'BUY', pricetype: 'MARKET', product: 'MIS' } as const;

it('a split of 105 by 20 that fills raises one notification: 6 of 6 filled', async () => {
  await withCore(async (h) => {
    const r = await h.core.router.invoke('orders.split', {
      ...market,
      symbol: 'INFY',
      quantity: 105,
      splitsize: 20,
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    await h.core.pollNow();
    expect(h.of('orders.filled')).toHaveLength(6);
    // The window elapses: nothing more.
    await h.clock.advance(GROUP_WINDOW_MS * 3);
    expect(h.notifications).toEqual([
      expect.objectContaining({ kind: 'fill', title: 'Split BUY 105 INFY: 6 of 6 filled', sticky: false }),
    ]);
    // The window still hears of each child's fill (it groups them itself).
    expect(h.of('alerts.raised').filter((a) => a.kind === 'fill')).toHaveLength(6);
  });
});

it('a split with rejected children raises its notification at once, once', async () => {
  await withCore(async (h) => {
    const i = paper.inst('NSE', 'RELIANCE');
    // Delivery needs the full value (₹1 crore of paper capital): one child of ₹60 lakh fits, the
    // others are refused for funds, in the split's answer and in the order book.
    const fits = Math.floor(6_000_000 / paper.ltp(i));
    const r = await h.core.router.invoke('orders.split', {
      ...market,
      symbol: 'RELIANCE',
      product: 'CNC',
      quantity: fits * 3,
      splitsize: fits,
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    // Before any poll or timer: the answer's refusals raise the group's notification at once.
    await Promise.resolve();
    expect(h.notifications).toEqual([
      expect.objectContaining({
        kind: 'rejection',
        title: `Split BUY ${(fits * 3).toLocaleString('en-IN')} RELIANCE: 0 of 3 filled · 2 rejected`,
        sticky: true,
      }),
    ]);
    const first = h.notifications[0]?.title;
    await h.core.pollNow();
    // The book's rejected children are the ones the answer told of: nothing new. The fitting child
    // fills in part (the book's depth) and the group was shown: nothing new either.
    expect(h.of('orders.rejected')).toHaveLength(2);
    expect(h.of('orders.partial')).toHaveLength(1);
    await h.clock.advance(GROUP_WINDOW_MS * 3);
    expect(h.notifications.map((n) => n.title)).toEqual([first]);
    // The rest fills: the group is complete, one follow-up under the same id.
    for (let n = 0; n < 10 && h.of('orders.filled').length === 0; n++) {
      paper.gw.clock.advance(1000);
      paper.engine().tick();
      await h.core.pollNow();
    }
    expect(h.notifications).toEqual([
      expect.objectContaining({ title: first, id: 'group:send-1' }),
      expect.objectContaining({
        kind: 'rejection',
        title: `Split BUY ${(fits * 3).toLocaleString('en-IN')} RELIANCE: 1 of 3 filled · 2 rejected`,
        id: 'group:send-1',
      }),
    ]);
    // The rejections stay sticky in the core's state: the tray says there is something to read.
    expect(h.trays.at(-1)).toMatchObject({
      state: 'alert',
      tooltip: expect.stringContaining('2 alerts to read'),
    });
  });
});

it('fills the book shows before the split’s answer join its one notification', async () => {
  await withCore(async (h) => {
    // The gateway places the children at once but its answer comes 400 ms later; a poll meanwhile
    // finds them filled.
    paper.proxy.enqueue({ kind: 'delay', ms: 400 }, '/api/v1/splitorder');
    const sent = h.core.router.invoke('orders.split', {
      ...market,
      symbol: 'ITC',
      quantity: 50,
      splitsize: 20,
    });
    await until(() => paper.proxy.forwardedTo('/api/v1/splitorder') > 0);
    await new Promise((r) => setTimeout(r, 100));
    await h.core.pollNow();
    expect(h.of('orders.filled')).toHaveLength(3);
    expect(h.notifications).toEqual([]);
    expect((await sent).ok).toBe(true);
    await h.clock.advance(GROUP_WINDOW_MS * 3);
    expect(h.notifications.map((n) => n.title)).toEqual(['Split BUY 50 ITC: 3 of 3 filled']);
  });
});

it('a basket of three raises one notification', async () => {
  await withCore(async (h) => {
    const r = await h.core.router.invoke('orders.basket', {
      orders: ['SBIN', 'ITC', 'TCS'].map((symbol) => ({ ...market, symbol, quantity: 5 })),
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    await h.core.pollNow();
    await h.clock.advance(GROUP_WINDOW_MS * 3);
    expect(h.notifications).toEqual([
      expect.objectContaining({ kind: 'fill', title: 'Basket of 3 legs: 3 of 3 filled' }),
    ]);
  });
});

it('a plain order’s fill is one notification of its own', async () => {
  await withCore(async (h) => {
    const r = await h.core.router.invoke('orders.place', { ...market, symbol: 'ITC', quantity: 7 });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    await h.core.pollNow();
    await h.clock.advance(GROUP_WINDOW_MS * 3);
    expect(h.notifications).toEqual([
      expect.objectContaining({
        kind: 'fill',
        title: expect.stringMatching(/^BUY 7 ITC @ ₹[\d,]+\.\d{2} filled$/),
      }),
    ]);
  });
});
