// The duplicate guard told of orders another run sent (the journal): the window counts from then.
import { describe, expect, it } from 'vitest';
import { createDuplicateGuard, type DuplicateOrder } from '../../../../src-main/core/risk/index.js';
import { ManualClock } from '../../../../src-main/gateway/index.js';

const o: DuplicateOrder = {
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 50,
  pricetype: 'LIMIT',
  product: 'MIS',
  price: 812.35,
};

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
