// RateWindow: one limiter window of the gateway client's rate budget, and its lanes.
import { describe, expect, it } from 'vitest';
import {
  ManualClock,
  RateWindow,
  sleep,
  type Priority,
  type Release,
} from '../../../src-main/gateway/index.js';

describe('RateWindow: one limiter window, its lanes', () => {
  it('grants in priority order, FIFO within a priority, and never more than N per window', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 2, 1000);
    const log: string[] = [];
    const take = (p: 'read' | 'mutation', name: string) =>
      budget.acquire(p).then((release) => {
        log.push(`${name}@${clock.now()}`);
        release();
      });
    const all = [
      take('read', 'r1'),
      take('read', 'r2'),
      take('read', 'r3'),
      take('mutation', 'm1'),
      take('read', 'r4'),
      take('mutation', 'm2'),
    ];
    await clock.advance(0);
    expect(log).toEqual(['r1@0', 'r2@0']);
    await clock.advance(3_000);
    await Promise.all(all);
    expect(log).toEqual(['r1@0', 'r2@0', 'm1@1000', 'm2@1000', 'r3@2000', 'r4@2000']);
    expect(budget.waiting).toBe(0);
  });

  it('holds a slot while its request is in flight and for a window after its answer', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 1, 1000);
    const slow = await budget.acquire('read');
    let next = false;
    const waiting = budget.acquire('read').then((release) => {
      next = true;
      return release;
    });
    await clock.advance(5_000);
    expect(next).toBe(false);
    slow();
    slow(); // a second release changes nothing
    await clock.advance(999);
    expect(next).toBe(false);
    await clock.advance(1);
    expect(next).toBe(true);
    (await waiting)();
  });

  it('keeps one slot for mutations: reads in flight never hold an order back', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 3, 1000);
    const reads = [await budget.acquire('read'), await budget.acquire('read')];
    let third = false;
    void budget.acquire('read').then(() => (third = true));
    await clock.advance(0);
    expect(third).toBe(false);
    let order = false;
    void budget.acquire('mutation').then(() => (order = true));
    await clock.advance(0);
    expect(order).toBe(true);
    // The reserved slot is the mutation's now; the waiting read goes once a read's window is over.
    for (const release of reads) release();
    await clock.advance(999);
    expect(third).toBe(false);
    await clock.advance(1);
    expect(third).toBe(true);
  });

  it('grants an order-path request queued behind N background requests first, within the cap', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 10, 1000);
    const grants: { name: string; at: number }[] = [];
    const take = (p: Priority, name: string) =>
      budget.acquire(p).then((release) => {
        grants.push({ name, at: clock.now() });
        // Answered 50 ms later: the slot is held for a window after that.
        void sleep(clock, 50).then(release);
      });
    const polls = Array.from({ length: 30 }, (_, i) => take('background', `poll${i}`));
    await clock.advance(0);
    // Nine polls go at once; the last slot is kept for the order path.
    expect(grants).toHaveLength(9);
    const asked = take('read', 'refresh');
    const quote = take('order', 'quote');
    await clock.advance(0);
    // The quote an order waits on takes the kept slot at once, ahead of 21 queued polls.
    expect(grants.map((g) => g.name)).toContain('quote');
    const mutation = take('mutation', 'place');
    await clock.advance(10_000);
    await Promise.all([...polls, asked, quote, mutation]);
    const names = grants.map((g) => g.name);
    // When the first slots free (one window after the polls' answers), the mutation goes, then the
    // trader's refresh, and only then the polls that were queued before both.
    expect(names.slice(9, 13)).toEqual(['quote', 'place', 'refresh', 'poll9']);
    expect(grants.find((g) => g.name === 'place')?.at).toBe(1050);
    // Never more than 10 grants within any second.
    for (const g of grants)
      expect(grants.filter((h) => h.at >= g.at && h.at < g.at + 1000).length).toBeLessThanOrEqual(10);
    expect(grants).toHaveLength(33);
  });

  it('keeps the last slot for the order path: background and trader reads never take it', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 3, 1000);
    const held = [await budget.acquire('background'), await budget.acquire('read')];
    const granted: string[] = [];
    void budget.acquire('background').then(() => granted.push('background'));
    void budget.acquire('read').then(() => granted.push('read'));
    await clock.advance(0);
    expect(granted).toEqual([]);
    let order: Release | undefined;
    void budget.acquire('order').then((release) => {
      order = release;
      granted.push('order');
    });
    await clock.advance(0);
    expect(granted).toEqual(['order']);
    // Two slots free a window after their answers: the trader's read takes one, the poll not the last.
    for (const release of held) release();
    await clock.advance(1000);
    expect(granted).toEqual(['order', 'read']);
    order?.();
    await clock.advance(1000);
    expect(granted).toEqual(['order', 'read', 'background']);
  });

  it("leaves the trader's reads their share while they read: a chain load's reads never queue behind polls", async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 10, 1000);
    const grants: { name: string; at: number }[] = [];
    const take = (p: Priority, name: string) =>
      budget.acquire(p).then(async (release) => {
        grants.push({ name, at: clock.now() });
        // Answered 10 ms later: the slot is held for a window after that.
        await sleep(clock, 10);
        release();
      });
    // The last chain load's read, then 30 polls queued behind it.
    const first = take('read', 'load1');
    const polls = Array.from({ length: 30 }, (_, i) => take('background', `poll${i}`));
    await clock.advance(0);
    // With a read of the trader's in the window, polling leaves 4 of the 10 to reads (and 1 to orders).
    expect(grants.map((g) => g.name)).toEqual(['load1', 'poll0', 'poll1', 'poll2', 'poll3']);
    await clock.advance(500);
    // The next load: expiry, search, quote, chain, one after the other, none waiting.
    for (const name of ['expiry', 'search', 'quote', 'chain']) {
      const asked = clock.now();
      const read = take('read', name);
      await clock.advance(0);
      expect(grants.at(-1)).toEqual({ name, at: asked });
      await clock.advance(10);
      await read;
    }
    // An order still finds its slot at once, ahead of the 26 queued polls.
    const place = take('mutation', 'place');
    await clock.advance(0);
    expect(grants.at(-1)?.name).toBe('place');
    await clock.advance(10_000);
    await Promise.all([first, ...polls, place]);
    expect(grants).toHaveLength(36);
    // Never more than 10 grants within any second.
    for (const g of grants)
      expect(grants.filter((h) => h.at >= g.at && h.at < g.at + 1000).length).toBeLessThanOrEqual(10);
    // Once the trader's reads age out of the window, polling has all but the order path's slot again.
    const lastRead = Math.max(...grants.filter((g) => !g.name.startsWith('poll')).map((g) => g.at));
    const late = grants.filter((g) => g.name.startsWith('poll') && g.at >= lastRead + 1010);
    const most = Math.max(...late.map((g) => late.filter((h) => h.at >= g.at && h.at < g.at + 1000).length));
    expect(most).toBe(9);
  });

  it('keeps polling to its share only while a read of the trader is in the window', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 10, 1000);
    const read = await budget.acquire('read');
    let polls = 0;
    for (let i = 0; i < 9; i++) void budget.acquire('background').then(() => polls++);
    await clock.advance(0);
    // The read in flight plus four polls: four slots stay free for the trader's next reads, one for orders.
    expect(polls).toBe(4);
    expect(budget.free).toBe(5);
    read();
    await clock.advance(999);
    expect(polls).toBe(4);
    // The read's window is over: the waiting polls take the rest but the order path's slot.
    await clock.advance(1);
    expect(polls).toBe(9);
    expect(budget.free).toBe(1);
  });

  it('keeps polling three slots of ten however much the trader reads', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 10, 1000);
    // The trader's reads hold six slots, in flight.
    const reads = await Promise.all(Array.from({ length: 6 }, () => budget.acquire('read')));
    let polls = 0;
    for (let i = 0; i < 5; i++) void budget.acquire('background').then(() => polls++);
    await clock.advance(0);
    // Past the trader's share, but polling's own three slots still go; the last is the order path's.
    expect(polls).toBe(3);
    expect(budget.free).toBe(1);
    let order = false;
    void budget.acquire('mutation').then(() => (order = true));
    await clock.advance(0);
    expect(order).toBe(true);
    for (const release of reads) release();
    await clock.advance(5_000);
    expect(polls).toBe(5);
  });

  it('is disabled by a rate of 0', async () => {
    const budget = new RateWindow(new ManualClock(0), 0);
    await Promise.all(Array.from({ length: 100 }, () => budget.acquire('read')));
  });
});
