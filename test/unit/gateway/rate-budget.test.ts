// The rate budget's windows: one per limiter class of the gateway, each with its own slots.
import { describe, expect, it } from 'vitest';
import {
  LIMITER_CLASS_OF_OPERATION,
  ManualClock,
  RateBudget,
  limiterClassOfPath,
  type LimiterClass,
  type Priority,
} from '../../../src-main/gateway/index.js';

describe('RateBudget', () => {
  it('gives each limiter class its own window at the same rate', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget(clock, 3, 1000);
    const grants: { cls: LimiterClass; at: number }[] = [];
    const take = (cls: LimiterClass, p: Priority) =>
      budget.acquire(cls, p).then((release) => {
        grants.push({ cls, at: clock.now() });
        release();
      });
    const all = [
      ...Array.from({ length: 4 }, () => take('api', 'order')),
      ...Array.from({ length: 4 }, () => take('order', 'mutation')),
      ...Array.from({ length: 4 }, () => take('smart', 'mutation')),
    ];
    await clock.advance(0);
    // Three of each class at once; the fourth of each a window later.
    for (const cls of ['api', 'order', 'smart'] as const) {
      expect(grants.filter((g) => g.cls === cls && g.at === 0)).toHaveLength(3);
      expect(budget.window(cls).waiting).toBe(1);
      expect(budget.window(cls).free).toBe(0);
    }
    await clock.advance(1000);
    await Promise.all(all);
    for (const cls of ['api', 'order', 'smart'] as const)
      expect(grants.filter((g) => g.cls === cls && g.at === 1000)).toHaveLength(1);
  });

  it('a full api window leaves the order window free', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget(clock, 10, 1000);
    for (let i = 0; i < 10; i++) await budget.acquire('api', 'order');
    expect(budget.window('api').free).toBe(0);
    expect(budget.window('order').free).toBe(10);
    let placed = false;
    void budget.acquire('order', 'mutation').then(() => (placed = true));
    await clock.advance(0);
    expect(placed).toBe(true);
  });
});

describe("the gateway's limiter classes", () => {
  it("counts order mutations, smart orders and the rest as the gateway's limiter does", () => {
    expect(limiterClassOfPath('/api/v1/placeorder')).toBe('order');
    expect(limiterClassOfPath('/api/v1/modifyorder')).toBe('order');
    expect(limiterClassOfPath('/api/v1/cancelorder')).toBe('order');
    expect(limiterClassOfPath('/api/v1/optionsorder')).toBe('order');
    expect(limiterClassOfPath('/api/v1/optionsmultiorder')).toBe('order');
    // GTT mutations are order mutations: they share the order lane's budget.
    for (const op of ['placegttorder', 'modifygttorder', 'cancelgttorder'])
      expect(limiterClassOfPath(`/api/v1/${op}`)).toBe('order');
    expect(limiterClassOfPath('/api/v1/gttorderbook')).toBe('api');
    expect(limiterClassOfPath('/api/v1/placesmartorder')).toBe('smart');
    // Mutations the gateway limits at API_RATE_LIMIT (gateway-behaviour §1.6).
    for (const op of ['splitorder', 'basketorder', 'cancelallorder', 'closeposition'])
      expect(limiterClassOfPath(`/api/v1/${op}`)).toBe('api');
    expect(limiterClassOfPath('/api/v1/quotes')).toBe('api');
    expect(limiterClassOfPath('/api/v1/ticker/NSE:SBIN')).toBe('api');
    expect(LIMITER_CLASS_OF_OPERATION.closepositionHosted).toBe('api');
    const counted = Object.values(LIMITER_CLASS_OF_OPERATION);
    expect(counted.filter((c) => c === 'order')).toHaveLength(8);
    expect(counted.filter((c) => c === 'smart')).toHaveLength(1);
  });
});
