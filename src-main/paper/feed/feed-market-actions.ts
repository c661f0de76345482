// The feed's market actions (websocket_proxy/server.py subscribe_client / unsubscribe_client):
// subscribe answers per symbol (`partial` when some are unknown here) and sends each new
// subscription its first tick after the ack; unsubscribe and unsubscribe_all answer `successful` and
// `failed` lists.
import type { InstrumentMaster } from '../instruments/instrument.js';
import { FEED_BROKER, MODE_LABEL } from './feed-payloads.js';
import {
  DEPTH_SERVED,
  depthOf,
  instrumentOf,
  isObject,
  modeOf,
  symbolsOf,
  withRequestId,
  type Json,
} from './feed-requests.js';
import { topicKey, type FeedTopics, type Subscriber, type Topic } from './feed-topics.js';

export interface MarketActions<C extends Subscriber> {
  master: InstrumentMaster;
  topics: FeedTopics<C>;
  /** (instrument, mode) pairs one connection may hold. */
  maxSubscriptions: number;
  sendJson(c: C, body: Json): void;
  /** An error frame echoing `m`'s request_id. */
  sendError(c: C, code: string, message: string, m: Json): void;
}

export function subscribe<C extends Subscriber>(x: MarketActions<C>, c: C, m: Json): void {
  const mode = modeOf(m.mode ?? 'Quote');
  if (typeof mode === 'string') return x.sendError(c, 'INVALID_MODE', mode, m);
  const depth = depthOf(m);
  if (depth === undefined) return x.sendError(c, 'INVALID_PARAMETERS', 'depth must be 5, 20, 30 or 50', m);
  const items = symbolsOf(m);
  if (items.length === 0)
    return x.sendError(c, 'INVALID_PARAMETERS', 'At least one symbol must be specified', m);
  const results: Json[] = [];
  const fresh: Topic<C>[] = [];
  for (const item of items) {
    const i = instrumentOf(x.master, item);
    if (!i) continue; // upstream skips an entry without symbol and exchange
    const base = { symbol: i.symbol, exchange: i.exchange, broker: FEED_BROKER };
    if (!i.inst) {
      results.push({
        ...base,
        status: 'error',
        message: `Symbol ${i.symbol} not found in exchange ${i.exchange}`,
      });
      continue;
    }
    const key = topicKey(i.inst, mode);
    if (!c.subs.has(key) && c.subs.size >= x.maxSubscriptions) {
      results.push({ ...base, status: 'error', message: `At most ${x.maxSubscriptions} subscriptions` });
      continue;
    }
    const t = x.topics.add(c, i.inst, mode);
    if (t) fresh.push(t);
    // The depth asked is echoed, as the live server does; a Depth subscription also says how many
    // levels its ticks carry.
    const served = mode === 3 ? { depth_served: DEPTH_SERVED } : {};
    results.push({
      symbol: i.symbol,
      exchange: i.exchange,
      status: 'success',
      mode: MODE_LABEL[mode],
      depth,
      ...served,
      broker: FEED_BROKER,
    });
  }
  if (results.length === 0)
    return x.sendError(c, 'INVALID_PARAMETERS', 'At least one symbol must be specified', m);
  const ok = results.every((r) => r.status === 'success');
  x.sendJson(
    c,
    withRequestId(m, {
      type: 'subscribe',
      status: ok ? 'success' : 'partial',
      subscriptions: results,
      message: 'Subscription processing complete',
      broker: FEED_BROKER,
    }),
  );
  for (const t of fresh) x.topics.sendTopic(t, c);
}

export function unsubscribe<C extends Subscriber>(x: MarketActions<C>, c: C, m: Json, all: boolean): void {
  const successful: Json[] = [];
  const failed: Json[] = [];
  if (all) {
    for (const t of x.topics.removeAll(c))
      successful.push({
        symbol: t.inst.symbol,
        exchange: t.inst.exchange,
        status: 'success',
        broker: FEED_BROKER,
      });
  } else {
    const items = symbolsOf(m);
    if (items.length === 0)
      return x.sendError(c, 'INVALID_PARAMETERS', 'Either symbols or unsubscribe_all is required', m);
    for (const item of items) {
      const i = instrumentOf(x.master, item);
      if (!i) continue;
      const base = { symbol: i.symbol, exchange: i.exchange, broker: FEED_BROKER };
      // Each entry's own mode, else the message's, else Quote (upstream reads only the entry's).
      const mode = modeOf((isObject(item) ? item.mode : undefined) ?? m.mode ?? 2);
      if (typeof mode === 'string') {
        failed.push({ ...base, status: 'error', message: mode });
        continue;
      }
      // A key this connection never held is a success too, as the live server reports it: the
      // client's intent (no such stream) holds.
      if (i.inst) x.topics.remove(c, topicKey(i.inst, mode));
      successful.push({ ...base, status: 'success' });
    }
  }
  const status = failed.length === 0 ? 'success' : successful.length > 0 ? 'partial' : 'error';
  x.sendJson(
    c,
    withRequestId(m, {
      type: 'unsubscribe',
      status,
      message: 'Unsubscription processing complete',
      successful,
      failed,
      broker: FEED_BROKER,
    }),
  );
}
