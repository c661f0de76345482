// The client's limiter classes (LIMITER_CLASS_OF_OPERATION) against the paper gateway's own limiter,
// which follows the real one (gateway-behaviour §1.6): each class gets a different rate there, every
// operation is sent five times at one instant of the gateway's clock with no client budget, and the
// number let through tells which class's rate the gateway applied.
import { describe, expect, it } from 'vitest';
import type { OperationName } from '../../../src-main/contract/index.js';
import {
  LIMITER_CLASS_OF_OPERATION,
  createGatewayClient,
  type GatewayClient,
  type GatewayResult,
  type LimiterClass,
} from '../../../src-main/gateway/index.js';
import { useTestGateway } from '../../support/paper-gateway.js';

const RATE: Record<LimiterClass, number> = { api: 1, order: 2, smart: 3 };
const gw = useTestGateway({ rateLimits: { api: RATE.api, order: RATE.order, smart: RATE.smart } });

const STRATEGY = 'classes';
const SBIN = { exchange: 'NSE', symbol: 'SBIN', product: 'MIS' } as const;
const NIFTY = { underlying: 'NIFTY', exchange: 'NSE_INDEX', expiry_date: '01DEC26' } as const;
const ORDER = { strategy: STRATEGY, ...SBIN, action: 'BUY', quantity: 1, pricetype: 'MARKET' } as const;

/** One call of each operation the desk's order path and polling use, with a valid input. */
const CALLS: { [N in OperationName]?: (c: GatewayClient) => Promise<GatewayResult<unknown>> } = {
  placeorder: (c) => c.placeorder(ORDER),
  modifyorder: (c) =>
    c.modifyorder({
      ...ORDER,
      orderid: '1',
      pricetype: 'LIMIT',
      price: 100,
      trigger_price: 0,
      disclosed_quantity: 0,
    }),
  cancelorder: (c) => c.cancelorder({ strategy: STRATEGY, orderid: '1' }),
  optionsorder: (c) =>
    c.optionsorder({
      ...NIFTY,
      strategy: STRATEGY,
      offset: 'ATM',
      option_type: 'CE',
      action: 'BUY',
      quantity: 65,
    }),
  optionsmultiorder: (c) =>
    c.optionsmultiorder({
      ...NIFTY,
      strategy: STRATEGY,
      legs: [{ offset: 'OTM2', option_type: 'PE', action: 'SELL', quantity: 65 }],
    }),
  placesmartorder: (c) => c.placesmartorder({ ...ORDER, quantity: 0, position_size: 1 }),
  splitorder: (c) => c.splitorder({ ...ORDER, quantity: 2, splitsize: 1 }),
  basketorder: (c) =>
    c.basketorder({ strategy: STRATEGY, orders: [{ ...SBIN, action: 'BUY', quantity: 1 }] }),
  cancelallorder: (c) => c.cancelallorder({ strategy: STRATEGY }),
  closeposition: (c) => c.closeposition({ strategy: STRATEGY }),
  orderbook: (c) => c.orderbook(),
  positionbook: (c) => c.positionbook(),
  tradebook: (c) => c.tradebook(),
  funds: (c) => c.funds(),
  orderstatus: (c) => c.orderstatus({ strategy: STRATEGY, orderid: '1' }),
  openposition: (c) => c.openposition({ strategy: STRATEGY, ...SBIN }),
  quotes: (c) => c.quotes({ symbol: 'SBIN', exchange: 'NSE' }),
  multiquotes: (c) => c.multiquotes({ symbols: [{ symbol: 'SBIN', exchange: 'NSE' }] }),
  depth: (c) => c.depth({ symbol: 'SBIN', exchange: 'NSE' }),
  symbol: (c) => c.symbol({ symbol: 'SBIN', exchange: 'NSE' }),
};

describe("the client's limiter classes are the gateway's", () => {
  it.each(Object.keys(CALLS) as OperationName[])('%s', async (op) => {
    // A window of its own: the previous operation's requests are a second old.
    gw.clock.advance(1_000);
    const client = createGatewayClient({
      baseUrl: gw.url,
      getApiKey: () => gw.apiKey,
      rateLimit: 0,
      retry: { maxRetries: 0 },
    });
    const call = CALLS[op]!;
    const results = await Promise.all(Array.from({ length: 5 }, () => call(client)));
    const through = results.filter((r) => r.ok || r.error.kind !== 'rate_limited').length;
    const cls = LIMITER_CLASS_OF_OPERATION[op];
    expect({ op, through }).toEqual({ op, through: RATE[cls] });
  });
});
