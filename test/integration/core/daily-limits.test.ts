// The soft daily limits through the router against the paper gateway: with a daily order count of 2
// the third entry is refused (typed: risk, naming the limit) while an exit still goes out; per-symbol
// limits replace the general ones for their instrument only; risk.daily reports the count.
import { afterEach, expect, it } from 'vitest';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const order = (symbol: string, action: 'BUY' | 'SELL', quantity: number) => ({
  symbol,
  exchange: 'NSE' as const,
  action,
  quantity,
  product: 'MIS' as const,
});

it('after the daily order count only exits go out, and risk.daily says so', async () => {
  h = await startCore(paper);
  await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, dailyOrderCount: 2 } });
  expect(await h.core.router.invoke('orders.place', order('ITC', 'BUY', 3))).toMatchObject({ ok: true });
  expect(await h.core.router.invoke('orders.place', order('ITC', 'BUY', 4))).toMatchObject({ ok: true });
  await h.core.pollNow();

  const third = await h.core.router.invoke('orders.place', order('ITC', 'BUY', 5));
  expect(third).toMatchObject({ ok: false, error: { kind: 'risk', limit: 'dailyOrderCount' } });
  expect(!third.ok && third.error.message).toMatch(/^Daily order count reached: 2 of 2 orders sent today/);
  // The refusal is journalled like any other pre-trade refusal.
  expect(!third.ok && third.error.journalId).toEqual(expect.any(String));

  // A long 7 ITC: selling 7 reduces it to flat, an exit.
  const exit = await h.core.router.invoke('orders.place', order('ITC', 'SELL', 7));
  expect(exit).toMatchObject({ ok: true, value: { orderid: expect.any(String) } });
  const daily = await h.core.router.invoke('risk.daily');
  expect(daily).toMatchObject({
    ok: true,
    value: { ordersToday: 3, orderLimit: 2, reached: 'dailyOrderCount' },
  });
  expect(daily.ok && daily.value.day).toBe('2026-11-20');

  // Raising the limit lets entries out again at once.
  await h.core.router.invoke('settings.update', { risk: { dailyOrderCount: 4 } });
  expect(await h.core.router.invoke('orders.place', order('ITC', 'BUY', 6))).toMatchObject({ ok: true });
});

it('an order the other checks refuse does not use up a daily slot', async () => {
  h = await startCore(paper);
  await h.core.router.invoke('settings.update', {
    risk: { ...LIMITS.risk, maxQuantityPerOrder: 10, dailyOrderCount: 1 },
  });
  const tooBig = await h.core.router.invoke('orders.place', order('TCS', 'BUY', 11));
  expect(tooBig).toMatchObject({ ok: false, error: { kind: 'risk' } });
  expect(!tooBig.ok && tooBig.error.limit).toBeUndefined();
  expect(await h.core.router.invoke('orders.place', order('TCS', 'BUY', 1))).toMatchObject({ ok: true });
});

it('per-symbol limits replace the general ones for that instrument only', async () => {
  h = await startCore(paper);
  const set = await h.core.router.invoke('settings.update', {
    risk: { ...LIMITS.risk, symbolOverrides: [{ symbol: 'sbin', exchange: 'NSE', maxQuantityPerOrder: 5 }] },
  });
  // Stored upper-cased, as the gateway spells symbols.
  expect(set.ok && set.value.risk.symbolOverrides).toEqual([
    { symbol: 'SBIN', exchange: 'NSE', maxQuantityPerOrder: 5 },
  ]);
  const sbin = await h.core.router.invoke('orders.place', order('SBIN', 'BUY', 6));
  expect(sbin).toMatchObject({ ok: false, error: { kind: 'risk' } });
  expect(!sbin.ok && sbin.error.message).toBe('Quantity 6 exceeds your NSE:SBIN limit of 5 per order');
  expect(await h.core.router.invoke('orders.place', order('INFY', 'BUY', 6))).toMatchObject({ ok: true });
});

it("after the day's loss reaches the daily loss limit only exits go out", async () => {
  h = await startCore(paper);
  await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, dailyLossLimit: 100 } });
  const i = paper.inst('NSE', 'HDFCBANK');
  // Straight after the start the books are unread: the gate reads them rather than refuse blind.
  expect(await h.core.router.invoke('orders.place', order('HDFCBANK', 'BUY', 10))).toMatchObject({
    ok: true,
  });
  await h.core.pollNow();
  // The market falls 5 %: ten shares lose far more than ₹100 at the last price.
  // Visible, the watcher prices open positions on every poll.
  await h.core.router.invoke('watcher.setVisibility', { visible: true });
  paper.gw.gateway.market.setPrice(i, paper.onTick(i, paper.ltp(i) * 0.95));
  paper.gw.clock.advance(1000);
  paper.engine().tick();
  await h.core.pollNow();
  await h.core.pollNow();
  const daily = await h.core.router.invoke('risk.daily');
  expect(daily).toMatchObject({ ok: true, value: { reached: 'dailyLossLimit', lossLimit: 100 } });
  // The day's P&L is decimal text, exact to the paisa: realised (funds) + the positions' MTM.
  const positions = await h.core.router.invoke('books.positions');
  const funds = await h.core.router.invoke('books.funds');
  const paise =
    Math.round(Number(funds.ok ? funds.value.realisedMtm : NaN) * 100) +
    Math.round((positions.ok ? (positions.value.totalMtm ?? NaN) : NaN) * 100);
  expect(paise).toBeLessThan(-10_000);
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  expect(daily.ok && daily.value.dayPnl).toBe(
    `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`,
  );

  const entry = await h.core.router.invoke('orders.place', order('HDFCBANK', 'BUY', 1));
  expect(entry).toMatchObject({ ok: false, error: { kind: 'risk', limit: 'dailyLossLimit' } });
  expect(!entry.ok && entry.error.message).toMatch(
    /^Daily loss limit of ₹100\.00 reached: the day's P&L is -₹[\d,]+\.\d{2};/,
  );
  // Selling the ten reduces the losing position: allowed.
  expect(await h.core.router.invoke('orders.place', order('HDFCBANK', 'SELL', 10))).toMatchObject({
    ok: true,
  });
});

it('a bad limit is refused with the field it belongs to', async () => {
  h = await startCore(paper);
  const r = await h.core.router.invoke('settings.update', {
    risk: { dailyOrderCount: -1, dailyLossLimit: 'x' },
  });
  expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  expect(!r.ok && r.error.fields).toEqual([
    { path: 'risk.dailyLossLimit', message: 'Daily loss limit must be a number' },
    { path: 'risk.dailyOrderCount', message: 'Daily order count must be at least 0' },
  ]);
});
