// Restarts, the core's half: the core runs as browser mode's host (a process of its own, its journal
// and watcher.db on disk) against the paper gateway as another child process, reached through a
// loopback proxy that can hold one answer back. The desk (a WebSocket client speaking the page's
// bridge frames) sends a seeded mix of market orders (they fill) and limits (they rest). The core is
// SIGKILLed twice: once between two orders, once while an order is in flight (it reached the
// gateway, its answer is held), and started again each time on the same data dir.
// Invariants: every order answered ok is in the gateway's book, the book holds each order once and
// nothing was sent again, the journal has one entry per order sent and none left pending (the
// in-flight one settled from the book as interrupted), and every fill is told once across all lives.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { OrderBookResponse, type IpcResult } from '../../src-main/contract/index.js';
import { startFaultProxy } from '../../test/support/fault-proxy.js';
import type { BridgeEvent } from './core-process.js';
import { coreLives, until, type CoreLife } from './core-lives.js';
import { auditFills } from './fill-audit.js';
import { freePort, gatewayApi, killHard, sleep, startGatewayChild } from './gateway-child.js';
import { forgetSeenOnDisk } from './plant.js';
import { createRng } from './rng.js';
import type { SuiteContext } from './suite.js';
import { STRESS_SYMBOLS } from './ticket-actions.js';

export interface CoreRestartOptions {
  /** Orders sent in all (default 24). */
  orders?: number;
  /** Real time between orders. */
  everyMs?: number;
}

const PLACE = '/api/v1/placeorder';
/** How long the proxy holds the in-flight order's answer: the core is killed well within it. */
const HOLD_MS = 5_000;
/** How long the suite waits for the interrupted order to be settled by the restarted core. */
const SETTLE_WAIT_MS = 35_000;

interface Payload {
  profileId?: string;
  state?: string;
  kind?: string;
  orderid?: string;
  order?: { orderid?: string };
}

const payloadOf = (e: BridgeEvent) => (e.payload ?? {}) as Payload;

export async function coreRestartScenario(ctx: SuiteContext, o: CoreRestartOptions = {}): Promise<void> {
  const orders = o.orders ?? 24;
  const everyMs = o.everyMs ?? 150;
  const cleanKillAt = Math.floor(orders / 3);
  const inFlightAt = Math.floor((2 * orders) / 3);
  const base = join(ctx.tmpDir, 'core-kill');
  const key = randomBytes(32).toString('hex');
  const port = await freePort();
  const gwUrl = `http://127.0.0.1:${port}`;
  const gateway = await startGatewayChild(port, join(base, 'paper'), key);
  const proxy = await startFaultProxy(gwUrl);
  const api = gatewayApi(gwUrl, key);
  const coreLife = coreLives({
    base,
    key,
    profile: { name: 'Stress gateway child', baseUrl: proxy.url, feedUrl: `ws://127.0.0.1:${port}/ws` },
    beforeStart: (life, coreDir) => {
      if (life > 1 && ctx.plant === 'forget-seen')
        ctx.note(`planted: the core's watcher.db lost ${forgetSeenOnDisk(coreDir)} seen orders`);
    },
  });
  const { sink } = coreLife;
  const bringUp = () => coreLife.bringUp();

  const rng = createRng(ctx.seed ^ 0x0c0e);
  const acked: string[] = [];
  const refused: Record<string, number> = {};
  let sent = 0;
  let market = 0;
  let limit = 0;
  let inFlight: { killedAfterMs: number; reply: IpcResult<unknown>; pricetype: unknown } | undefined;

  async function orderInput(): Promise<Record<string, unknown>> {
    const symbol = rng.pick(STRESS_SYMBOLS);
    const action = rng.chance(0.5) ? 'BUY' : 'SELL';
    const common = { exchange: 'NSE', symbol, action, quantity: 1, product: 'MIS', confirmDuplicate: true };
    if (rng.chance(0.6)) {
      market += 1;
      return { ...common, pricetype: 'MARKET' };
    }
    limit += 1;
    // 2 % off the market, on the tick: it rests for the run (well inside the 10 % price band).
    const q = (await api('quotes', { symbol, exchange: 'NSE' })) as { data?: { ltp?: number } };
    const ltp = q.data?.ltp ?? 0;
    if (!(ltp > 0)) throw new Error(`no quote for ${symbol}`);
    const price = Number((Math.round((ltp * (action === 'BUY' ? 0.98 : 1.02)) / 0.05) * 0.05).toFixed(2));
    return { ...common, pricetype: 'LIMIT', price };
  }

  function tally(r: IpcResult<unknown>): void {
    if (r.ok) acked.push((r.value as { orderid: string }).orderid);
    else refused[r.error.kind] = (refused[r.error.kind] ?? 0) + 1;
  }

  const lives: CoreLife[] = [];
  try {
    lives.push(await bringUp());
    for (let i = 0; i < orders; i++) {
      if (i === cleanKillAt) {
        // Between two orders, with the fills of the last ones still on their way to the desk.
        await coreLife.core().kill();
        ctx.note(`core SIGKILLed after ${i} orders`);
        lives.push(await bringUp());
      }
      const input = await orderInput();
      sent += 1;
      if (i === inFlightAt && !inFlight) {
        // The order reaches the gateway; its answer is held; the core dies before it comes.
        proxy.enqueue({ kind: 'delay', ms: HOLD_MS }, PLACE);
        const before = proxy.forwardedTo(PLACE);
        const t0 = Date.now();
        const { reply } = await coreLife.link().send('orders.place', input);
        const reached = await until(() => proxy.forwardedTo(PLACE) > before, HOLD_MS - 1_000);
        if (!reached) throw new Error('the in-flight order never reached the gateway');
        await coreLife.core().kill();
        const r = await reply;
        inFlight = { killedAfterMs: Date.now() - t0, reply: r, pricetype: input['pricetype'] };
        ctx.note(`core SIGKILLed with order ${i + 1} in flight (${r.ok ? 'answered' : r.error.kind})`);
        if (r.ok) tally(r);
        lives.push(await bringUp());
      } else tally(await coreLife.link().invoke('orders.place', input));
      await sleep(everyMs);
    }

    // The restarted core settles the interrupted order from the book once no other process can still
    // be waiting on it (INTERRUPTED_MIN_AGE_MS after its intent); the watcher catches up meanwhile.
    const journalOf = () => coreLife.placeorderJournal();
    const settleStart = Date.now();
    const interruptedSettled = await until(
      async () => (await journalOf()).some((e) => e.error?.kind === 'interrupted' && e.resolution),
      SETTLE_WAIT_MS,
    );
    const settleMs = Date.now() - settleStart;
    // What the last life said, for the next reader: the suite cannot see inside the core otherwise.
    if (!interruptedSettled)
      ctx.note(`the last core's log:\n${coreLife.core().stderr().split('\n').slice(-40).join('\n')}`);
    await sleep(3_000);

    const entries = await journalOf();
    const book = OrderBookResponse.parse(await api('orderbook')).data.orders;
    const inBook = new Map<string, number>();
    for (const b of book) inBook.set(b.orderid, (inBook.get(b.orderid) ?? 0) + 1);
    const lost = acked.filter((id) => !inBook.has(id));
    const journalled = new Map<string, number>();
    for (const e of entries) for (const id of e.orderIds) journalled.set(id, (journalled.get(id) ?? 0) + 1);
    const unjournalled = book.filter((b) => !journalled.has(b.orderid)).length;
    const twice = [...journalled.values()].filter((n) => n > 1).length;
    const pending = entries.filter((e) => e.outcome === 'pending');
    const interrupted = entries.filter((e) => e.error?.kind === 'interrupted');
    const settled = interrupted.filter((e) => e.resolution?.found && e.resolution.orderid);

    const events = sink.events.flatMap((e) => {
      const orderid = payloadOf(e).order?.orderid;
      return e.name.startsWith('orders.') && orderid ? [{ name: e.name, orderid, at: e.at }] : [];
    });
    const notifications = sink.events.flatMap((e) => {
      const p = payloadOf(e);
      return e.name === 'alerts.raised' && p.kind
        ? [{ kind: p.kind, ...(p.orderid ? { orderid: p.orderid } : {}) }]
        : [];
    });
    const audit = await auditFills({ gatewayApi: (path) => api(path), events, notifications });
    const alerted = new Set(notifications.filter((n) => n.kind === 'fill').map((n) => n.orderid));
    const complete = book.filter((b) => b.order_status === 'complete').map((b) => b.orderid);
    const unalerted = complete.filter((id) => !alerted.has(id)).length;
    const forwarded = proxy.forwardedTo(PLACE);

    ctx.figure(
      'core kill: orders sent (market / limit) / acknowledged',
      `${sent} (${market} / ${limit}) / ${acked.length}`,
    );
    ctx.figure('core kill: refused', JSON.stringify(refused));
    ctx.figure(
      'core kill: core start (spawn to link), per life',
      lives.map((l) => `${l.startMs} ms`).join(', '),
    );
    ctx.figure(
      'core kill: restart to "connected" (spawn, link, key), per life',
      lives.map((l) => `${l.connectedMs} ms`).join(', '),
    );
    ctx.figure(
      'core kill: in-flight order',
      inFlight
        ? `${String(inFlight.pricetype)}, killed ${inFlight.killedAfterMs} ms after sending; desk got ${inFlight.reply.ok ? 'ok' : inFlight.reply.error.kind}; settled ${interruptedSettled ? `${settleMs} ms after the desk came back` : 'NOT within the wait'}`
        : 'not sent',
    );
    ctx.figure(
      'core kill: gateway book orders / placeorder requests that reached it',
      `${book.length} / ${forwarded}`,
    );
    ctx.figure('core kill: acknowledged orders missing from the gateway book', lost.length);
    ctx.figure(
      'core kill: journal placeorder entries / pending / interrupted (settled)',
      `${entries.length} / ${pending.length} / ${interrupted.length} (${settled.length})`,
    );
    ctx.figure(
      'core kill: fill events expected (trade rows) / delivered',
      `${audit.tradeRows} / ${audit.fillEvents}`,
    );
    ctx.figure(
      'core kill: fill alerts / duplicate / missing',
      `${audit.fillNotifications} / ${audit.duplicateNotifications} / ${unalerted}`,
    );
    ctx.figure(
      'core kill: duplicate / missing fill events',
      `${audit.duplicateFills} / ${audit.missingFills}`,
    );
    ctx.figure('core kill: bridge frames outside the contract', sink.badFrames.length);

    ctx.check('core kill: no acknowledged order lost', lost.length === 0, `${lost.length} missing`);
    ctx.check(
      'core kill: no order twice in the gateway book, nothing resent',
      [...inBook.values()].every((n) => n === 1) &&
        book.length === forwarded &&
        book.length === acked.length + (inFlight?.reply.ok ? 0 : 1),
      `${book.length} in the book, ${forwarded} placeorder requests reached it, ${acked.length} acknowledged + 1 in flight`,
    );
    ctx.check(
      'core kill: one journal entry per order sent',
      entries.length === sent,
      `${entries.length} for ${sent}`,
    );
    ctx.check(
      'core kill: every order in the book journalled once',
      unjournalled === 0 && twice === 0,
      `${unjournalled} missing, ${twice} twice`,
    );
    ctx.check(
      'core kill: no journal entry left pending; the in-flight one settled from the book',
      pending.length === 0 && interrupted.length === 1 && settled.length === 1,
      `${pending.length} pending, ${interrupted.length} interrupted, ${settled.length} settled`,
    );
    ctx.check(
      'core kill: every fill told exactly once across the lives',
      audit.duplicateFills === 0 && audit.missingFills === 0 && audit.fillEvents === audit.tradeRows,
      `${audit.duplicateFills} repeated, ${audit.missingFills} missing, ${audit.fillEvents} events for ${audit.tradeRows} trades`,
    );
    ctx.check(
      'core kill: every fill alerted exactly once',
      audit.duplicateNotifications === 0 && unalerted === 0,
      `${audit.duplicateNotifications} repeated, ${unalerted} missing`,
    );
    ctx.check(
      'core kill: every bridge frame within the contract',
      sink.badFrames.length === 0,
      sink.badFrames[0],
    );
  } finally {
    await coreLife.stop();
    await proxy.stop();
    await killHard(gateway);
  }
}
