import { describe, expect, it } from 'vitest';
import { createDuplicateGuard, type DuplicateOrder } from '../../../../src-main/core/risk/index.js';
import { ManualClock } from '../../../../src-main/gateway/index.js';

function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}
const o: DuplicateOrder = {
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 50,
  pricetype: 'LIMIT',
  product: 'MIS',
  price: 812.35,
};

describe('duplicate guard', () => {
  it('refuses the same order within 2 s unless confirmed', () => {
    const clock = fakeClock();
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    expect(guard.admit(o)).toEqual({ ok: true });
    clock.advance(800);
    const again = guard.admit(o);
    expect(again).toEqual({
      ok: false,
      reasons: [
        'The same order (BUY 50 SBIN NSE @ ₹812.35 LIMIT MIS) was sent 0.8 s ago, within your duplicate window of 2.0 s; confirm to send it again',
      ],
    });
    expect(guard.admit(o, { confirmDuplicate: true })).toEqual({ ok: true });
  });

  it('admits the same order once the window has passed', () => {
    const clock = fakeClock();
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    guard.admit(o);
    clock.advance(1999);
    expect(guard.admit(o).ok).toBe(false);
    clock.advance(2000);
    expect(guard.admit(o).ok).toBe(true);
  });

  it('a confirmed duplicate restarts the window', () => {
    const clock = fakeClock();
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    guard.admit(o);
    clock.advance(1500);
    guard.admit(o, { confirmDuplicate: true });
    clock.advance(1500);
    expect(guard.admit(o).ok).toBe(false);
  });

  it('any differing field makes a different order', () => {
    const clock = fakeClock();
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    guard.admit(o);
    const variants: Partial<DuplicateOrder>[] = [
      { symbol: 'SBI' },
      { exchange: 'BSE' },
      { action: 'SELL' },
      { quantity: 51 },
      { price: 812.4 },
      { product: 'CNC' },
      { pricetype: 'SL' },
    ];
    for (const v of variants) expect(guard.admit({ ...o, ...v }).ok).toBe(true);
    expect(guard.admit({ ...o, symbol: ' sbin ' }).ok).toBe(false);
  });

  it('keeps profiles apart by scope', () => {
    const guard = createDuplicateGuard({ clock: fakeClock(), windowMs: 2000 });
    guard.admit(o, { scope: 'paper' });
    expect(guard.admit(o, { scope: 'broker' }).ok).toBe(true);
    expect(guard.admit(o, { scope: 'paper' }).ok).toBe(false);
  });

  it('follows a changed window setting and 0 turns it off', () => {
    const clock = fakeClock();
    let window = 2000;
    const guard = createDuplicateGuard({ clock, windowMs: () => window });
    guard.admit(o);
    window = 500;
    clock.advance(600);
    expect(guard.admit(o).ok).toBe(true);
    window = 0;
    expect(guard.admit(o).ok).toBe(true);
    expect(guard.admit(o).ok).toBe(true);
  });
});

// Orders another run sent (the journal) are remembered: the window counts from when they were sent.
describe('duplicate guard: remember', () => {
  it('holds back the same order until the window has passed since it was sent', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    guard.remember(o, clock.now() - 1500, { scope: 'p' });
    const again = guard.admit(o, { scope: 'p' });
    expect(again.ok).toBe(false);
    expect(!again.ok && again.reasons[0]).toMatch(/was sent 1\.5 s ago/);
    // Another profile's order is not a duplicate.
    expect(guard.admit(o, { scope: 'q' }).ok).toBe(true);
    await clock.advance(500);
    expect(guard.admit(o, { scope: 'p' }).ok).toBe(true);
  });

  it('ignores an order sent longer ago than the window, and everything when the window is 0', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    guard.remember(o, clock.now() - 2000);
    expect(guard.admit(o).ok).toBe(true);
    const off = createDuplicateGuard({ clock, windowMs: 0 });
    off.remember(o, clock.now());
    expect(off.admit(o).ok).toBe(true);
  });

  it('keeps the latest time and takes a time ahead of its clock as now', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const guard = createDuplicateGuard({ clock, windowMs: 2000 });
    guard.remember(o, clock.now() - 1900);
    guard.remember(o, clock.now() + 60_000);
    guard.remember(o, clock.now() - 1000);
    await clock.advance(1999);
    expect(guard.admit(o).ok).toBe(false);
    await clock.advance(1);
    expect(guard.admit(o).ok).toBe(true);
  });
});
