// The account guard's flatten action through the core against the paper gateway: the breach locks and
// flattens (working orders cancelled, positions closed, read back flat), a second breach during the
// run starts nothing more, and a position another client opens on the same account during the lock
// is seen, counted and closed; stopping the re-squaring leaves the lock.
import { afterEach, expect, it } from 'vitest';
import type { Harness } from '../../support/core-harness.js';
import { usePaper } from '../../support/core-harness.js';
import {
  fill,
  guardState,
  move,
  order,
  setGuard,
  startKeyedCore,
  waitGuard,
} from '../../support/guard-harness.js';

const paper = usePaper();
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function book(h: Harness) {
  await h.core.pollNow();
  const o = await h.core.router.invoke('books.orders');
  const p = await h.core.router.invoke('books.positions');
  if (!o.ok || !p.ok) throw new Error('books not read');
  return { orders: o.value.orders, open: p.value.positions.filter((x) => x.quantity !== 0) };
}

it('a breach under flatten locks, cancels working orders and closes every position, read back flat', async () => {
  const keyed = await startKeyedCore(paper);
  h = keyed.h;
  await setGuard(h, { enabled: true, dailyLoss: 300, maxDrawdown: 300, action: 'flatten' });
  await fill(h, 'ITC', 'BUY', 40);
  await fill(h, 'SBIN', 'SELL', 5);
  const sbin = paper.inst('NSE', 'SBIN');
  // A resting BUY 3 % under the market: working when the breach comes.
  const resting = await h.core.router.invoke('orders.place', {
    ...order('SBIN', 'BUY', 1),
    pricetype: 'LIMIT',
    price: paper.onTick(sbin, paper.ltp(sbin) * 0.97),
  });
  expect(resting.ok).toBe(true);

  const itc = paper.ltp(paper.inst('NSE', 'ITC'));
  move(paper, 'ITC', itc * 0.95);
  const flat = await waitGuard(h, (v) => expect(v.flatten.state).toBe('flat'), 15_000);
  expect(flat.lock).toMatchObject({ action: 'flatten' });
  // Both money rules were crossed by the one fall: one lock, one run.
  expect(flat.flatten.rounds).toBeGreaterThanOrEqual(1);
  const states = h.of('guard.state').map((v) => v.flatten.state);
  expect(states.filter((s, i) => s === 'running' && states[i - 1] !== 'running')).toHaveLength(1);
  const after = await book(h);
  expect(after.open).toEqual([]);
  expect(after.orders.filter((o) => o.status === 'open' || o.status === 'trigger pending')).toEqual([]);
  expect(after.orders.find((o) => resting.ok && o.orderid === resting.value.orderid)?.status).toBe(
    'cancelled',
  );

  // Another client opens a position on the same account during the lock: seen, counted, closed.
  const ordersBefore = flat.orders;
  const placed = await keyed.other('placeorder', {
    strategy: 'phone',
    ...order('INFY', 'BUY', 3),
    price: 0,
    trigger_price: 0,
    disclosed_quantity: 0,
  });
  expect(placed).toMatchObject({ status: 'success' });
  await h.core.pollNow();
  const seen = await guardState(h);
  expect(seen.orders).toBeGreaterThan(ordersBefore);
  await waitGuard(
    h,
    (v) => {
      expect(v.flatten.state).toBe('flat');
      expect(v.openPositions).toBe(0);
      expect(v.orders).toBeGreaterThanOrEqual(ordersBefore + 2);
    },
    20_000,
  );
  expect((await book(h)).open).toEqual([]);
});

it('stopping the re-squaring leaves the lock; a second stop is refused', async () => {
  h = (await startKeyedCore(paper)).h;
  await setGuard(h, { enabled: true, maxOpenPositions: 1, action: 'flatten' });
  await fill(h, 'TCS', 'BUY', 1);
  // Two open: more than one, a breach at the book's read.
  await fill(h, 'WIPRO', 'BUY', 1);
  const running = await waitGuard(h, (v) => expect(v.lock).not.toBeNull());
  expect(running.lock?.rule).toBe('maxOpenPositions');
  const stop = await h.core.router.invoke('guard.stopFlatten');
  if (running.flatten.state === 'running') {
    expect(stop).toMatchObject({ ok: true, value: { lock: { rule: 'maxOpenPositions' } } });
    await waitGuard(h, (v) => expect(v.flatten.state).toMatch(/stopped|flat/));
  } else expect(stop).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  expect(await h.core.router.invoke('guard.stopFlatten')).toMatchObject({
    ok: false,
    error: { kind: 'conflict', message: 'No flatten is running' },
  });
  expect((await guardState(h)).lock).not.toBeNull();
});
