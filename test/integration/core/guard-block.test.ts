// The account guard's block action through the core against the paper gateway: the daily loss lock
// made by a fall in the market's price (the day's MTM exact to the paisa, as the paper's books state
// it), new entries refused with words naming the lock and its end while exits go out, and the tray.
import { afterEach, expect, it } from 'vitest';
import { startCore, usePaper, type Harness } from '../../support/core-harness.js';
import {
  fill,
  guardState,
  move,
  order,
  paperMtmPaise,
  rupees,
  setGuard,
  waitGuard,
} from '../../support/guard-harness.js';

const paper = usePaper();
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

it('a loss past the daily loss lock blocks entries until the next trading day; exits go out', async () => {
  h = await startCore(paper);
  await setGuard(h, { enabled: true, dailyLoss: 500, action: 'block' });
  await fill(h, 'HDFCBANK', 'BUY', 10);
  const before = await guardState(h);
  expect(before.lock).toBeNull();
  expect(before.usage.map((u) => u.rule)).toEqual(['dailyLoss']);

  const ltp = paper.ltp(paper.inst('NSE', 'HDFCBANK'));
  const price = move(paper, 'HDFCBANK', ltp * 0.9413);
  const locked = await waitGuard(h, (v) => expect(v.lock).not.toBeNull());
  expect(locked.lock).toMatchObject({
    rule: 'dailyLoss',
    action: 'block',
    until: '2026-11-23T09:15:00.000+05:30',
  });
  expect(locked.mtm).toBe(rupees(await paperMtmPaise(h, { HDFCBANK: price })));
  expect(locked.lock?.reason).toMatch(/^Day MTM -₹[\d,]+\.\d{2} is past the daily loss lock ₹500\.00$/);

  const entry = await h.core.router.invoke('orders.place', order('HDFCBANK', 'BUY', 1));
  expect(entry).toMatchObject({ ok: false, error: { kind: 'risk' } });
  expect(!entry.ok && entry.error.message).toMatch(
    /^Account guard locked by the daily loss lock until 23-Nov-2026 09:15:00 IST: Day MTM/,
  );
  expect(h.trays.at(-1)?.state).toBe('locked');
  // Selling the ten reduces the open position: an exit goes out.
  expect(await h.core.router.invoke('orders.place', order('HDFCBANK', 'SELL', 10))).toMatchObject({
    ok: true,
  });
});
