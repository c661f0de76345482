// Every order action the desk sends goes through one bridge; this wrapper hands each refusal (risk
// check, duplicate guard, the gateway's own error) to a listener, so Alerts lists it whichever pane
// sent the order, in the same words shown next to that pane. Unknown outcomes are not refusals: the
// core announces those itself (orders.unknown) and settles them from the order book.
import type { BridgeApi, Channel, IpcError } from '@contract';
import { ORDER_CHANNEL_NAMES } from '@shared/ipc-names.js';

/** The channels that change orders or positions. */
export const ORDER_CHANNELS = ORDER_CHANNEL_NAMES;
export type OrderChannel = (typeof ORDER_CHANNELS)[number];

/** The order a place or split asked for, to match the gateway's later rejection of the same order. */
export interface RefusedOrder {
  symbol: string;
  exchange: string;
  action: string;
  quantity: number;
}

export interface Refusal {
  channel: OrderChannel;
  /** What was asked, in a trader's words (`BUY 50,000 SBIN NSE`, `cancel order 2611…`). */
  what: string;
  error: IpcError;
  orderid?: string;
  order?: RefusedOrder;
  time: number;
}

const isOrderChannel = (c: Channel): c is OrderChannel => (ORDER_CHANNELS as readonly Channel[]).includes(c);

const qty = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });

function text(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** A place or split's symbol, exchange, side and quantity, when the input has all four. */
function orderOf(i: Record<string, unknown>): RefusedOrder | undefined {
  const [symbol, exchange, action] = [text(i['symbol']), text(i['exchange']), text(i['action'])];
  const quantity = Number(i['quantity']);
  if (!symbol || !exchange || !action || !Number.isFinite(quantity)) return undefined;
  return { symbol, exchange, action, quantity };
}

/** The request in words; only fields the contract's inputs have, never anything else from `input`. */
export function describeRequest(
  channel: OrderChannel,
  input: unknown,
): { what: string; orderid?: string; order?: RefusedOrder } {
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const orderid = text(i['orderid']);
  const leg = () => {
    const q = Number(i['quantity']);
    const amount = Number.isFinite(q) ? qty.format(q) : '?';
    return `${text(i['action']) ?? ''} ${amount} ${text(i['symbol']) ?? ''} ${text(i['exchange']) ?? ''}`
      .replace(/\s+/g, ' ')
      .trim();
  };
  switch (channel) {
    case 'orders.place':
    case 'orders.split': {
      const order = orderOf(i);
      return {
        what: channel === 'orders.split' ? `${leg()} (split)` : leg(),
        ...(order ? { order } : {}),
      };
    }
    case 'orders.smart':
      return { what: `${text(i['symbol']) ?? ''} to position ${text(i['position_size']) ?? '?'}`.trim() };
    case 'orders.modify':
      return { what: `modify order ${orderid ?? '?'}`, ...(orderid ? { orderid } : {}) };
    case 'orders.cancel':
      return { what: `cancel order ${orderid ?? '?'}`, ...(orderid ? { orderid } : {}) };
    case 'orders.cancelAll':
      return { what: 'cancel all orders' };
    case 'orders.basket':
      return { what: 'basket order' };
    case 'orders.closePosition':
      return { what: 'close all positions' };
    case 'orders.closeAll':
      return { what: 'close all (cancel working orders, close, verify)' };
    case 'orders.protect':
      return { what: `protect order ${orderid ?? '?'}`, ...(orderid ? { orderid } : {}) };
    case 'protection.modify':
    case 'protection.remove':
    case 'protection.retry':
    case 'protection.flatten': {
      const entry = text(i['entry']);
      const verb = {
        'protection.modify': 'move the protection of',
        'protection.remove': 'remove the protection of',
        'protection.retry': 'place again the refused leg of',
        'protection.flatten': 'flatten the bracket of',
      }[channel];
      return { what: `${verb} order ${entry ?? '?'}`, ...(entry ? { orderid: entry } : {}) };
    }
    case 'strategies.send':
      return { what: `send strategy ${text(i['name']) ?? '?'}` };
    case 'strategies.resume':
      return { what: `send the remaining legs of strategy ${text(i['id']) ?? '?'}` };
    case 'strategies.exit':
      return { what: `exit strategy ${text(i['id']) ?? '?'}` };
    case 'strategies.roll':
      return { what: `roll a leg of strategy ${text(i['id']) ?? '?'}` };
  }
}

export function tapRefusals(
  bridge: BridgeApi,
  onRefusal: (r: Refusal) => void,
  now: () => number = Date.now,
): BridgeApi {
  return {
    on: (event, cb) => bridge.on(event, cb),
    async invoke(channel, input) {
      const r = await bridge.invoke(channel, input);
      if (!r.ok && r.error.kind !== 'unknown_outcome' && isOrderChannel(channel))
        onRefusal({ channel, ...describeRequest(channel, input), error: r.error, time: now() });
      return r;
    },
  };
}
