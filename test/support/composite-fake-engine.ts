// A minimal in-memory TradingEngine and HTTP harness for the composite routes, independent of the
// real engine and server: MARKET orders fill at once at 100, LIMIT rests `open`, SL/SL-M rest
// `trigger pending`, symbol BAD is refused, a MARKET order of 10000 or more fills half and rests. Only what the composite operations use is real.
import Fastify, { type FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Product } from '../../src-main/contract/index.js';
import type {
  EngineResult,
  ModifyOutcome,
  OrderInput,
  PaperOrder,
  PaperPosition,
  StrategyExposure,
  TradingEngine,
} from '../../src-main/paper/engine/engine.js';
import { HttpError, type RouteKit, type RoutePlugin } from '../../src-main/paper/http/route-kit.js';

interface Fill {
  strategy: string;
  key: string;
  symbol: string;
  exchange: string;
  product: Product;
  signed: number;
}

export class FakeEngine implements TradingEngine {
  private orderList: PaperOrder[] = [];
  private fills: Fill[] = [];
  private remembered = new Map<string, { request: string; value: unknown }>();
  private version = 1;
  private seq = 0;
  placeCalls = 0;

  placeOrder(account: string, input: OrderInput): EngineResult<PaperOrder> {
    this.placeCalls++;
    if (input.symbol === 'BAD')
      return { ok: false, status: 400, message: `Symbol BAD not found on ${input.exchange}` };
    const market = input.pricetype === 'MARKET';
    const filled = market ? (input.quantity >= 10_000 ? input.quantity / 2 : input.quantity) : 0;
    const order: PaperOrder = {
      ...input,
      orderid: String(1000 + ++this.seq),
      account,
      status:
        market && filled === input.quantity
          ? 'complete'
          : input.pricetype === 'MARKET' || input.pricetype === 'LIMIT'
            ? 'open'
            : 'trigger pending',
      filled_quantity: filled,
      average_price: filled > 0 ? 100 : 0,
      rejection_reason: '',
      margin_blocked: 0,
      created_ms: this.seq,
      updated_ms: this.seq,
    };
    this.orderList.unshift(order);
    if (filled > 0)
      this.fills.push({
        strategy: `${account}|${input.strategy}`,
        key: `${account}|${input.symbol}|${input.exchange}|${input.product}`,
        symbol: input.symbol,
        exchange: input.exchange,
        product: input.product,
        signed: input.action === 'BUY' ? filled : -filled,
      });
    return { ok: true, value: order };
  }
  modifyOrder(): EngineResult<ModifyOutcome> {
    throw new Error('not used');
  }
  cancelOrder(account: string, orderid: string): EngineResult<PaperOrder> {
    const o = this.order(account, orderid);
    if (!o) return { ok: false, status: 404, message: `Order ${orderid} not found` };
    if (o.status !== 'open' && o.status !== 'trigger pending')
      return { ok: false, status: 400, message: `Cannot cancel order in ${o.status} status` };
    // Test hook: an order of strategy "Stuck" refuses to cancel.
    if (o.strategy === 'Stuck') return { ok: false, status: 400, message: 'Order in transit' };
    o.status = 'cancelled';
    return { ok: true, value: o };
  }
  order(account: string, orderid: string): PaperOrder | undefined {
    return this.orderList.find((o) => o.account === account && o.orderid === orderid);
  }
  orders(account: string): PaperOrder[] {
    return this.orderList.filter((o) => o.account === account);
  }
  trades(): [] {
    return [];
  }
  positions(account: string): PaperPosition[] {
    const byKey = new Map<string, PaperPosition>();
    for (const f of this.fills) {
      if (!f.key.startsWith(`${account}|`)) continue;
      const p = byKey.get(f.key) ?? {
        exchange: f.exchange,
        symbol: f.symbol,
        product: f.product,
        quantity: 0,
        average_price: 100,
        realised_pnl: 0,
        unrealised_pnl: 0,
        ltp: 100,
      };
      p.quantity += f.signed;
      byKey.set(f.key, p);
    }
    return [...byKey.values()];
  }
  holdings(): [] {
    return [];
  }
  funds() {
    return { availablecash: 0, collateral: 0, m2mrealized: 0, m2munrealized: 0, utiliseddebits: 0 };
  }
  strategyQuantity(
    account: string,
    strategy: string,
    symbol: string,
    exchange: string,
    product: Product,
  ): number {
    return this.fills
      .filter(
        (f) =>
          f.strategy === `${account}|${strategy}` && f.key === `${account}|${symbol}|${exchange}|${product}`,
      )
      .reduce((a, f) => a + f.signed, 0);
  }
  strategyExposure(account: string, strategy: string) {
    const byKey = new Map<string, StrategyExposure>();
    for (const f of this.fills.filter((x) => x.strategy === `${account}|${strategy}`)) {
      const e = byKey.get(f.key) ?? {
        symbol: f.symbol,
        exchange: f.exchange,
        product: f.product,
        quantity: 0,
      };
      e.quantity += f.signed;
      byKey.set(f.key, e);
    }
    return [...byKey.values()].filter((e) => e.quantity !== 0);
  }
  /** Test hook: attribute a fill directly, e.g. on a symbol placeOrder would refuse. */
  seedFill(account: string, strategy: string, symbol: string, signed: number): void {
    const key = `${account}|${symbol}|NSE|MIS`;
    this.fills.push({
      strategy: `${account}|${strategy}`,
      key,
      symbol,
      exchange: 'NSE',
      product: 'MIS',
      signed,
    });
  }
  tick(): void {}
  transaction<T>(fn: () => T): T {
    return fn();
  }
  rememberResponse(
    account: string,
    requestId: string,
    request: string,
    compute: () => unknown,
  ): EngineResult<unknown> {
    const key = `${account}|${requestId}`;
    const stored = this.remembered.get(key);
    if (stored && stored.request !== request)
      return { ok: false, status: 409, message: `request_id ${requestId} was already used` };
    if (stored) return { ok: true, value: stored.value };
    const value = compute();
    this.remembered.set(key, { request, value });
    return { ok: true, value };
  }
  mode() {
    return { mode: 'analyze' as const, balance_type: 'sandbox' as const, mode_version: this.version };
  }
  reset(): void {
    this.orderList = [];
    this.fills = [];
    this.remembered.clear();
    this.version++;
  }
  close(): void {}
}

/** Keys `key-a` and `key-b` are accounts A and B; anything else is invalid. */
const kit: RouteKit = {
  parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
    const r = schema.safeParse(body);
    if (!r.success) throw new HttpError(400, r.error.issues[0]?.message ?? 'Invalid request');
    return r.data;
  },
  account(apikey) {
    if (apikey === 'key-a') return 'A';
    if (apikey === 'key-b') return 'B';
    throw new HttpError(403, 'Invalid openalgo apikey');
  },
};

export async function fakeServer(plugin: RoutePlugin): Promise<FastifyInstance> {
  const app = Fastify();
  app.setErrorHandler((err, _req, reply) => {
    const e = err instanceof HttpError ? err : new HttpError(500, String(err));
    return reply.code(e.status).send({ status: 'error', message: e.message, ...e.extra });
  });
  plugin(app, kit);
  await app.ready();
  return app;
}
