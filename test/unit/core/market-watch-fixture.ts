// The shared setup of the market-watch-*.test.ts files: a market watch over a scripted client and a
// ManualClock, with quotes and depth to answer.
import type {
  DepthData,
  EventName,
  EventPayload,
  MarketMode,
  QuoteData,
} from '../../../src-main/contract/index.js';
import { createMarketWatch, type MarketClient } from '../../../src-main/core/market/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { ManualClock, fail, ok, type GatewayError } from '../../../src-main/gateway/index.js';

export type Exchange = 'NSE' | 'BSE' | 'NFO';
export const inst = (symbol: string, exchange: Exchange = 'NSE') => ({ symbol, exchange });

export function quote(ltp: number, prevClose = 100): QuoteData {
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
export function depth(ltp: number): DepthData {
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

export interface Sent {
  at: number;
  op: 'multiquotes' | 'quotes' | 'depth';
  symbols: string[];
}

/** A gateway that knows `known` symbols; each answer can be held back or made to fail. */
export class FakeClient implements MarketClient {
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

export function setup(options: { visible?: boolean } = {}) {
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
