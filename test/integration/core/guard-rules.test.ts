// Each money rule of the account guard through the core against the paper gateway, priced on the
// live feed: warnings at 50 % and 80 % once each (per the rule's alert choice), the daily profit lock
// under warn (an alert, no lock), max drawdown from the day's peak, and max loss per position.
import { afterEach, expect, it } from 'vitest';
import { startCore, usePaper, type Harness } from '../../support/core-harness.js';
import {
  averageOf,
  fill,
  guardState,
  move,
  order,
  setGuard,
  waitGuard,
} from '../../support/guard-harness.js';

const paper = usePaper();
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});
const raised = (h: Harness, title: RegExp) => h.of('alerts.raised').filter((a) => title.test(a.title));

it('warns at 50 % and 80 % of the daily loss lock once each, per its alert choice', async () => {
  h = await startCore(paper);
  await setGuard(h, { enabled: true, dailyLoss: 1000, action: 'block', warn50: 'in_app', warn80: 'os' });
  await fill(h, 'INFY', 'BUY', 10);
  const base = await averageOf(h, 'INFY');
  move(paper, 'INFY', base - 60); // ₹600 lost: 60 %
  await waitGuard(h, (v) => expect(v.nearest?.percent).toBe(60));
  move(paper, 'INFY', base - 55);
  await waitGuard(h, (v) => expect(v.nearest?.percent).toBe(55));
  move(paper, 'INFY', base - 61);
  await waitGuard(h, (v) => expect(v.nearest?.percent).toBe(61));
  expect(raised(h, /50 % of the daily loss lock/)).toHaveLength(1);
  expect(raised(h, /50 % of the daily loss lock/)[0]).toMatchObject({ delivery: 'in_app', sticky: false });
  move(paper, 'INFY', base - 85);
  const v = await waitGuard(h, (v) => expect(v.nearest?.percent).toBe(85));
  expect(v.nearest).toMatchObject({
    rule: 'dailyLoss',
    used: '850.00',
    limit: '1000.00',
    words: 'Day loss ₹850.00 of ₹1,000.00',
  });
  expect(raised(h, /80 % of the daily loss lock/)).toHaveLength(1);
  expect(h.notifications.filter((n) => /80 % of the daily loss lock/.test(n.title))).toHaveLength(1);
  expect(v.lock).toBeNull();
});

it('the daily profit lock under warn alerts once and locks nothing', async () => {
  h = await startCore(paper);
  await setGuard(h, { enabled: true, dailyProfit: 200, action: 'warn' });
  await fill(h, 'TCS', 'BUY', 2);
  const base = await averageOf(h, 'TCS');
  move(paper, 'TCS', base + 150); // ₹300 made
  await waitGuard(h, (v) => expect(v.usage[0]?.percent).toBeGreaterThanOrEqual(100));
  expect(raised(h, /daily profit lock reached/)).toHaveLength(1);
  expect(h.notifications.some((n) => /daily profit lock reached/.test(n.title))).toBe(true);
  expect((await guardState(h)).lock).toBeNull();
  expect(await h.core.router.invoke('orders.place', order('TCS', 'BUY', 1))).toMatchObject({ ok: true });
  await h.core.pollNow();
  expect(raised(h, /daily profit lock reached/)).toHaveLength(1);
});

it('max drawdown counts from the day’s peak MTM', async () => {
  h = await startCore(paper);
  await setGuard(h, { enabled: true, maxDrawdown: 400, dailyLoss: 100_000, action: 'block' });
  await fill(h, 'WIPRO', 'BUY', 20);
  const base = await averageOf(h, 'WIPRO');
  move(paper, 'WIPRO', base + 15); // +₹300: the peak
  await waitGuard(h, (v) => expect(v.peak).toBe('300.00'));
  move(paper, 'WIPRO', base - 2); // -₹40: ₹340 below the peak, not yet
  await waitGuard(h, (v) => expect(v.usage.find((u) => u.rule === 'maxDrawdown')?.used).toBe('340.00'));
  expect((await guardState(h)).lock).toBeNull();
  move(paper, 'WIPRO', base - 5); // -₹100: ₹400 below the peak
  const locked = await waitGuard(h, (v) => expect(v.lock?.rule).toBe('maxDrawdown'));
  expect(locked.peak).toBe('300.00');
  expect(locked.lock?.reason).toBe(
    "Day MTM -₹100.00 is ₹400.00 below the day's peak ₹300.00, past the max drawdown ₹400.00",
  );
});

it('max loss per position locks on one position’s loss, not the day’s', async () => {
  h = await startCore(paper);
  await setGuard(h, { enabled: true, maxLossPerPosition: 250, action: 'block' });
  await fill(h, 'SBIN', 'BUY', 10);
  await fill(h, 'ITC', 'BUY', 10);
  const sbin = await averageOf(h, 'SBIN');
  const itc = await averageOf(h, 'ITC');
  move(paper, 'ITC', itc + 40); // +₹400 on ITC
  move(paper, 'SBIN', sbin - 25); // -₹250 on SBIN: the day is up, one position is past the limit
  const locked = await waitGuard(h, (v) => expect(v.lock?.rule).toBe('maxLossPerPosition'));
  expect(locked.lock?.reason).toBe('SBIN is losing ₹250.00, past the max loss per position ₹250.00');
  expect(Number(locked.mtm)).toBeGreaterThan(0);
});
