// The market watch's scheduler over a scripted client and a ManualClock: the budget courtesy: orders
// go first.
import { describe, expect, it } from 'vitest';
import type { ChannelArgs } from '../../../src-main/contract/index.js';
import { createMarketWatch, type MarketClient } from '../../../src-main/core/market/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { ManualClock, ok, sleep } from '../../../src-main/gateway/index.js';
import { RateWindow } from '../../../src-main/gateway/rate-budget.js';
import { depth, inst, quote, setup } from './market-watch-fixture.js';

describe('orders first', () => {
  it('sends nothing while others wait for the budget or when it would take the last free slots', async () => {
    const { clock, client, watch } = setup();
    await watch('depth', [inst('RELIANCE')], true);
    await watch('depth', [inst('TCS')]);
    await clock.advance(1000);
    expect(client.count('depth')).toBeGreaterThan(0);
    const sent = (from: number) => ({
      focus: client.count('depth', 'NSE:RELIANCE', from),
      shared: client.count('depth', 'NSE:TCS', from),
    });

    client.load_ = { free: 5, waiting: 1, limit: 10 };
    let from = clock.now() + 1;
    await clock.advance(2000);
    expect(sent(from)).toEqual({ focus: 0, shared: 0 });

    // On a 10/s budget the focus leaves the last slot, the rest the last three.
    client.load_ = { free: 1, waiting: 0, limit: 10 };
    from = clock.now() + 1;
    await clock.advance(2000);
    expect(sent(from)).toEqual({ focus: 0, shared: 0 });
    client.load_ = { free: 3, waiting: 0, limit: 10 };
    from = clock.now() + 1;
    await clock.advance(2000);
    expect(sent(from)).toEqual({ focus: 5, shared: 0 });

    // Room again: within the 100 ms re-check.
    client.load_ = { free: 4, waiting: 0, limit: 10 };
    from = clock.now() + 1;
    await clock.advance(100);
    expect(sent(from).shared).toBe(1);
  });

  it('leaves fewer slots on small budgets, so a 2/s profile still gets market data', async () => {
    const { clock, client, watch } = setup();
    client.load_ = { free: 1, waiting: 0, limit: 2 };
    await watch('depth', [inst('RELIANCE')], true);
    await clock.advance(2000);
    expect(client.count('depth', undefined, 1)).toBe(5);
    // A third of a 3/s budget is one slot: the last one is never taken.
    client.load_ = { free: 1, waiting: 0, limit: 3 };
    await clock.advance(2000);
    expect(client.count('depth', undefined, 2001)).toBe(0);
  });

  it('lets a burst of mutations through before any further market request, on the real budget', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 10, 1000);
    const log: { at: number; who: 'market' | 'order' }[] = [];
    /** A read through the budget, answered 20 ms later. */
    /** How long each market read waited for the budget. */
    const queued: number[] = [];
    async function read<T>(value: T): Promise<T> {
      const asked = clock.now();
      const release = await budget.acquire('read');
      queued.push(clock.now() - asked);
      log.push({ at: clock.now(), who: 'market' });
      await sleep(clock, 20);
      release();
      return value;
    }
    const client: MarketClient = {
      load: () => ({ free: budget.free, waiting: budget.waiting, limit: budget.perSecond }),
      depth: () => read(ok({ status: 'success' as const, data: depth(100) })),
      quotes: () => read(ok({ status: 'success' as const, data: quote(100) })),
      multiquotes: (input) =>
        read(
          ok({
            status: 'success' as const,
            results: input.symbols.map((i) => ({ ...i, data: quote(100) })),
          }),
        ),
    };
    const market = createMarketWatch({
      clock,
      emit: () => undefined,
      logger: createMemoryLogger(),
      visible: true,
    });
    market.setSession('paper', client);
    // Validation goes through the budget too, and answers on the manual clock.
    const inputs: ChannelArgs<'market.watch'>[] = [
      { mode: 'quote', symbols: [inst('SBIN'), inst('INFY')] },
      { mode: 'depth', symbols: [inst('TCS')] },
      { mode: 'depth', symbols: [inst('RELIANCE')], focus: true },
    ];
    for (const input of inputs) {
      const watched = market.watch(input);
      await clock.advance(30);
      expect(await watched).toMatchObject({ ok: true });
    }
    await clock.advance(3010);

    const burst = clock.now();
    const grants: number[] = [];
    for (let k = 0; k < 12; k++) {
      void budget.acquire('mutation').then((release) => {
        log.push({ at: clock.now(), who: 'order' });
        grants.push(clock.now());
        clock.setTimer(release, 20);
      });
    }
    await clock.advance(3000);
    expect(grants).toHaveLength(12);
    // Market polling held at most 4 of the 10 slots: 6 orders or more went at once.
    expect(grants.filter((t) => t === burst).length).toBeGreaterThanOrEqual(6);
    // And none of the rest waited behind a market read: nothing of the market's went in between.
    const lastGrant = Math.max(...grants);
    expect(lastGrant).toBeGreaterThan(burst);
    expect(log.filter((e) => e.who === 'market' && e.at >= burst && e.at <= lastGrant)).toEqual([]);
    // The market never queued for the budget (so never sat in front of an order's reads), and goes on.
    expect(queued.length).toBeGreaterThan(10);
    expect(queued.filter((ms) => ms > 0)).toEqual([]);
    expect(log.filter((e) => e.who === 'market' && e.at > lastGrant).length).toBeGreaterThan(3);
    market.stop();
  });

  it('keeps at most two market requests outstanding however slow the gateway is', async () => {
    const { clock, client, watch } = setup();
    await watch('quote', [inst('SBIN')]);
    await watch('depth', [inst('TCS')]);
    await watch('depth', [inst('INFY')]);
    await watch('depth', [inst('RELIANCE')], true);
    let open!: () => void;
    client.gate = new Promise((r) => (open = r));
    const from = clock.now() + 1;
    await clock.advance(5000);
    expect(client.maxOutstanding).toBe(2);
    expect(client.sent.filter((s) => s.at >= from).length).toBeLessThanOrEqual(2);
    open();
    client.gate = undefined;
    await clock.advance(1000);
    expect(client.sent.filter((s) => s.at >= from).length).toBeGreaterThan(2);
    expect(client.maxOutstanding).toBe(2);
  });
});
