// The market watch's scheduler over a scripted client and a ManualClock: reference counting, symbol
// validation once, focus at ≥ 2/s, fair round-robin for the rest, the hidden slow-down, the budget
// courtesy (orders first), backoff, fallback without multiquotes, and profile switches.
import { describe, expect, it } from 'vitest';
import type {
  ChannelArgs,
  DepthData,
  EventName,
  EventPayload,
  MarketMode,
  QuoteData,
} from '../../../src-main/contract/index.js';
import { createMarketWatch, type MarketClient } from '../../../src-main/core/market/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { ManualClock, fail, ok, sleep, type GatewayError } from '../../../src-main/gateway/index.js';
import { RateWindow } from '../../../src-main/gateway/rate-budget.js';

type Exchange = 'NSE' | 'BSE' | 'NFO';
const inst = (symbol: string, exchange: Exchange = 'NSE') => ({ symbol, exchange });

function quote(ltp: number, prevClose = 100): QuoteData {
  return {
    ltp,
    prev_close: prevClose,
    open: 99,
    high: 102,
    low: 98,
    bid: ltp - 0.05,
    ask: ltp + 0.05,
    volume: 10,
    oi: 0,
  };
}
function depth(ltp: number): DepthData {
  const lv = (p: number) => ({ price: p, quantity: 10 });
  return {
    ltp,
    ltq: 1,
    open: 99,
    high: 102,
    low: 98,
    prev_close: 100,
    volume: 10,
    oi: 0,
    totalbuyqty: 50,
    totalsellqty: 60,
    bids: [lv(ltp - 0.05), lv(ltp - 0.1), lv(ltp - 0.15), lv(ltp - 0.2), lv(ltp - 0.25), lv(ltp - 0.3)],
    asks: [lv(ltp + 0.05), lv(ltp + 0.1), lv(ltp + 0.15), lv(ltp + 0.2), lv(ltp + 0.25), lv(ltp + 0.3)],
  };
}

interface Sent {
  at: number;
  op: 'multiquotes' | 'quotes' | 'depth';
  symbols: string[];
}

/** A gateway that knows `known` symbols; each answer can be held back or made to fail. */
class FakeClient implements MarketClient {
  sent: Sent[] = [];
  known = new Set(['NSE:SBIN', 'NSE:INFY', 'NSE:TCS', 'NSE:RELIANCE', 'NSE:HDFCBANK']);
  load_ = { free: 10, waiting: 0, limit: 10 };
  /** Every answer waits for this (tests that hold requests in flight). */
  gate: Promise<void> | undefined;
  failWith: GatewayError | undefined;
  multiquotesOffered = true;
  outstanding = 0;
  maxOutstanding = 0;

  constructor(
    private readonly clock: ManualClock,
    private readonly ltp = 100.05,
  ) {}

  private async answer<T>(op: Sent['op'], symbols: string[], value: () => T) {
    this.sent.push({ at: this.clock.now(), op, symbols });
    this.outstanding++;
    this.maxOutstanding = Math.max(this.maxOutstanding, this.outstanding);
    try {
      if (this.gate) await this.gate;
      if (this.failWith) return fail(this.failWith);
      return value();
    } finally {
      this.outstanding--;
    }
  }

  load() {
    return { ...this.load_ };
  }
  multiquotes(input: { symbols: { symbol: string; exchange: string }[] }) {
    const keys = input.symbols.map((s) => `${s.exchange}:${s.symbol}`);
    return this.answer('multiquotes', keys, () => {
      if (!this.multiquotesOffered)
        return fail({
          kind: 'not_offered',
          message: 'the gateway does not offer multiquotes',
          httpStatus: 404,
        });
      const bad = input.symbols.filter((s) => !this.known.has(`${s.exchange}:${s.symbol}`));
      if (bad.length === input.symbols.length)
        return fail({ kind: 'bad_input', message: `Symbol '${bad[0]?.symbol}' not found`, httpStatus: 400 });
      return ok({
        status: 'success' as const,
        results: input.symbols.map((s) =>
          this.known.has(`${s.exchange}:${s.symbol}`)
            ? { ...s, data: quote(this.ltp) }
            : { ...s, error: `Symbol '${s.symbol}' not found` },
        ),
      });
    }) as ReturnType<MarketClient['multiquotes']>;
  }
  quotes(input: { symbol: string; exchange: string }) {
    const key = `${input.exchange}:${input.symbol}`;
    return this.answer('quotes', [key], () =>
      this.known.has(key)
        ? ok({ status: 'success' as const, data: quote(this.ltp) })
        : fail({ kind: 'bad_input', message: `Symbol '${input.symbol}' not found`, httpStatus: 400 }),
    ) as ReturnType<MarketClient['quotes']>;
  }
  depth(input: { symbol: string; exchange: string }) {
    const key = `${input.exchange}:${input.symbol}`;
    return this.answer('depth', [key], () =>
      this.known.has(key)
        ? ok({ status: 'success' as const, data: depth(this.ltp) })
        : fail({ kind: 'bad_input', message: `Symbol '${input.symbol}' not found`, httpStatus: 400 }),
    ) as ReturnType<MarketClient['depth']>;
  }

  /** Requests of `op` (naming `key`) sent in [from, to). */
  count(op: Sent['op'], key?: string, from = -Infinity, to = Infinity) {
    return this.sent.filter(
      (s) => s.op === op && s.at >= from && s.at < to && (key === undefined || s.symbols.includes(key)),
    ).length;
  }
}

function setup(options: { visible?: boolean } = {}) {
  const clock = new ManualClock(0);
  const events: { name: EventName; payload: unknown }[] = [];
  const market = createMarketWatch({
    clock,
    emit: (name, payload) => events.push({ name, payload }),
    logger: createMemoryLogger(),
    visible: options.visible ?? true,
  });
  const client = new FakeClient(clock);
  market.setSession('paper', client);
  const of = <E extends EventName>(name: E, from = 0) =>
    events
      .slice(from)
      .filter((e) => e.name === name)
      .map((e) => e.payload as EventPayload<E>);
  const watch = async (
    mode: MarketMode,
    symbols: { symbol: string; exchange: Exchange }[],
    focus?: boolean,
  ) => {
    const r = await market.watch({ mode, symbols, ...(focus === undefined ? {} : { focus }) });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r.value;
  };
  return { clock, events, market, client, of, watch };
}

describe('reference counting and validation', () => {
  it('polls an instrument while any subscription holds it and stops when the last goes', async () => {
    const { clock, market, client, watch } = setup();
    const a = await watch('quote', [inst('SBIN'), inst('INFY')]);
    const b = await watch('quote', [inst('SBIN')]);
    expect(a.rejected).toEqual([]);
    await clock.advance(2000);
    // One batch per turn, SBIN in it once although two subscriptions hold it.
    const batches = client.sent.filter((s) => s.op === 'multiquotes' && s.at > 0);
    expect(batches.length).toBe(2);
    for (const s of batches) expect(s.symbols).toEqual(['NSE:SBIN', 'NSE:INFY']);

    const first = market.unwatch(a.id);
    expect(first).toEqual({ ok: true, value: { id: a.id, stopped: [inst('INFY')] } });
    const t1 = clock.now();
    await clock.advance(2000);
    const after = client.sent.filter((s) => s.op === 'multiquotes' && s.at > t1);
    expect(after.length).toBe(2);
    for (const s of after) expect(s.symbols).toEqual(['NSE:SBIN']);

    expect(market.unwatch(b.id)).toEqual({ ok: true, value: { id: b.id, stopped: [inst('SBIN')] } });
    const t2 = clock.now();
    await clock.advance(5000);
    expect(client.sent.filter((s) => s.at > t2)).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it('refuses an unknown subscription id as a typed error', () => {
    const { market } = setup();
    expect(market.unwatch('mw-404')).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('validates each symbol through the gateway once and emits what it read as the first tick', async () => {
    const { client, watch, of } = setup();
    const w = await watch('quote', [inst('SBIN'), inst('NOPE')]);
    expect(w.symbols).toEqual([inst('SBIN')]);
    expect(w.rejected).toMatchObject([{ symbol: 'NOPE', exchange: 'NSE', error: { kind: 'not_found' } }]);
    // One request validated both; polling then asks for the known one only.
    expect(client.sent[0]).toEqual({ at: 0, op: 'multiquotes', symbols: ['NSE:SBIN', 'NSE:NOPE'] });
    expect(client.sent.slice(1).every((s) => s.symbols.join() === 'NSE:SBIN')).toBe(true);
    expect(of('market.quote')[0]).toMatchObject({ symbol: 'SBIN', ltp: 100.05, change: 0.05 });

    // Known now: a second watch (any mode) costs no validation request.
    const before = client.sent.length;
    await watch('ltp', [inst('SBIN')]);
    expect(client.sent.length).toBe(before);
  });

  it('fails a watch whose symbols are all unknown, subscribing nothing', async () => {
    const { market, clock, client } = setup();
    const r = await market.watch({ mode: 'depth', symbols: [inst('NOPE')], focus: true });
    expect(r).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(market.stats().subscriptions).toBe(0);
    await clock.advance(2000);
    expect(client.count('depth')).toBe(0);
  });

  it('fails the watch with the gateway error when validation cannot reach it', async () => {
    const { market, client } = setup();
    client.failWith = { kind: 'network', message: 'cannot reach the gateway: ECONNREFUSED' };
    const r = await market.watch({ mode: 'quote', symbols: [inst('SBIN')] });
    expect(r).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(market.stats().subscriptions).toBe(0);
  });
});

describe('focus and fair sharing', () => {
  it('polls the focused depth at 2.5/s and shares 1/s round-robin among the rest', async () => {
    const { clock, client, watch, of } = setup();
    await watch('quote', [inst('SBIN'), inst('INFY')]);
    await watch('depth', [inst('TCS')]);
    await watch('depth', [inst('HDFCBANK')]);
    await watch('depth', [inst('RELIANCE')], true);
    // Measured over [1 s, 11 s): past the validations and first polls of t = 0.
    await clock.advance(11_000);
    const focus = client.count('depth', 'NSE:RELIANCE', 1000, 11_000);
    const shares = [
      client.count('multiquotes', undefined, 1000, 11_000),
      client.count('depth', 'NSE:TCS', 1000, 11_000),
      client.count('depth', 'NSE:HDFCBANK', 1000, 11_000),
    ];
    expect(focus).toBe(25);
    // 1/s shared by three: 10 turns, 4, 3 and 3 in some order.
    expect(shares.reduce((a, b) => a + b, 0)).toBe(10);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    // Each answer is one event, stamped when it arrived.
    const ticks = of('market.depth').filter(
      (e) => e.symbol === 'RELIANCE' && e.time >= 1000 && e.time < 11_000,
    );
    expect(ticks.length).toBe(focus);
    // Five levels a side at most, as the contract says.
    expect(of('market.depth')[0]?.bids).toHaveLength(5);
  });

  it('gives the focus to the newest focused watch and back when it goes', async () => {
    const { clock, client, market, watch } = setup();
    const a = await watch('depth', [inst('TCS')], true);
    const b = await watch('depth', [inst('INFY')], true);
    await clock.advance(4000);
    expect(client.count('depth', 'NSE:INFY', 1, 4001)).toBe(10);
    // TCS is an ordinary depth now: the shared 1/s.
    expect(client.count('depth', 'NSE:TCS', 1, 4001)).toBe(4);
    market.unwatch(b.id);
    await clock.advance(4000);
    expect(client.count('depth', 'NSE:TCS', 4001, 8001)).toBe(10);
    expect(client.count('depth', 'NSE:INFY', 4001, 8001)).toBe(0);
    market.unwatch(a.id);
  });

  it('polls four times slower while the window is hidden', async () => {
    const { clock, client, market, watch } = setup();
    await watch('quote', [inst('SBIN')]);
    await watch('depth', [inst('RELIANCE')], true);
    await clock.advance(8000);
    // Visible, over (0, 8 s]: focus every 400 ms, the quote batch every second.
    expect(client.count('depth', undefined, 1, 8001)).toBe(20);
    expect(client.count('multiquotes', undefined, 1, 8001)).toBe(8);
    market.setVisibility(false);
    await clock.advance(8000);
    // Hidden, over (8 s, 16 s]: every 1.6 s and every 4 s.
    expect(client.count('depth', undefined, 8001, 16_001)).toBe(5);
    expect(client.count('multiquotes', undefined, 8001, 16_001)).toBe(2);
    // Visible again: the overdue focus goes at once.
    await clock.advance(500);
    const n = client.count('depth');
    market.setVisibility(true);
    await clock.advance(0);
    expect(client.count('depth')).toBe(n + 1);
  });
});

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

describe('failures', () => {
  it('reports a failing source once per run of failures and backs off', async () => {
    const { clock, client, watch, of } = setup();
    await watch('depth', [inst('RELIANCE')], true);
    const n0 = client.count('depth');
    client.failWith = { kind: 'server', message: 'gateway error (HTTP 500)', httpStatus: 500 };
    const from = clock.now();
    await clock.advance(20_000);
    // 1, 2, 4, 8 s apart: a handful of tries, not 50.
    const tries = client.count('depth', undefined, from);
    expect(tries).toBeGreaterThanOrEqual(4);
    expect(tries).toBeLessThanOrEqual(6);
    expect(of('market.error')).toMatchObject([
      { mode: 'depth', symbols: [inst('RELIANCE')], error: { kind: 'server', httpStatus: 500 } },
    ]);
    client.failWith = undefined;
    await clock.advance(16_000);
    expect(client.count('depth')).toBeGreaterThan(n0 + tries + 3);
  });

  it('stops asking for a symbol the gateway no longer knows, saying so once', async () => {
    const { clock, client, watch, of } = setup();
    await watch('quote', [inst('SBIN'), inst('INFY')]);
    client.known.delete('NSE:INFY');
    await clock.advance(3000);
    expect(of('market.error')).toMatchObject([
      { mode: 'quote', symbols: [inst('INFY')], error: { kind: 'not_found' } },
    ]);
    const last = client.sent.at(-1);
    expect(last?.symbols).toEqual(['NSE:SBIN']);
  });

  it('falls back to one quotes request per symbol where the gateway has no multiquotes', async () => {
    const { clock, client, watch, of } = setup();
    client.multiquotesOffered = false;
    const w = await watch('ltp', [inst('SBIN'), inst('NOPE')]);
    expect(w.rejected.map((r) => r.symbol)).toEqual(['NOPE']);
    const from = clock.now() + 1;
    await clock.advance(3000);
    expect(client.count('multiquotes', undefined, from)).toBe(0);
    expect(client.count('quotes', 'NSE:SBIN', from)).toBe(3);
    expect(of('market.ltp').at(-1)).toMatchObject({ symbol: 'SBIN', exchange: 'NSE', ltp: 100.05 });
  });
});

describe('profile switch', () => {
  it('keeps the subscriptions, polls the new gateway, drops the old one’s late answers', async () => {
    const { clock, client, market, watch, of, events } = setup();
    const w = await watch('quote', [inst('SBIN'), inst('INFY')]);
    await watch('depth', [inst('RELIANCE')], true);
    let open!: () => void;
    client.gate = new Promise((r) => (open = r));
    await clock.advance(1000);
    expect(client.outstanding).toBeGreaterThan(0);

    const next = new FakeClient(clock, 200.1);
    next.known.delete('NSE:INFY');
    market.setSession('broker', next);
    const from = events.length;
    open();
    await clock.advance(3000);
    // Nothing from the old profile after the switch; the new gateway answers for everything.
    expect(events.slice(from).every((e) => (e.payload as { profileId: string }).profileId === 'broker')).toBe(
      true,
    );
    expect(of('market.depth', from).length).toBeGreaterThanOrEqual(7);
    expect(of('market.quote', from).at(-1)).toMatchObject({ symbol: 'SBIN', ltp: 200.1 });
    // INFY is unknown there: one error, then left out.
    expect(of('market.error', from)).toMatchObject([
      { profileId: 'broker', mode: 'quote', symbols: [inst('INFY')], error: { kind: 'not_found' } },
    ]);
    expect(next.sent.filter((s) => s.op === 'multiquotes').at(-1)?.symbols).toEqual(['NSE:SBIN']);
    // The subscription id from before the switch still works.
    expect(market.unwatch(w.id)).toMatchObject({ ok: true });
  });

  it('stops every timer on stop', async () => {
    const { clock, client, market, watch } = setup();
    await watch('depth', [inst('RELIANCE')], true);
    market.stop();
    const n = client.sent.length;
    await clock.advance(5000);
    expect(client.sent.length).toBe(n);
    expect(clock.pending).toBe(0);
    expect(await market.watch({ mode: 'ltp', symbols: [inst('SBIN')] })).toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
  });
});
