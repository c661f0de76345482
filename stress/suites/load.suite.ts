// Load: a burst of 200 ticket actions (orders, modifies, cancels, refreshes) within one second of
// the session clock, from the desk's side (the router), with the watcher polling at its visible
// pace and the feed live. Invariants: no 429 from the gateway, every order acknowledged, and no
// order kept waiting behind polling for more than 100 ms. That wait is measured against the same
// burst (same seed, same clock) with polling slowed to once in ten minutes: the difference per
// order is what polling cost it. The desk watches the symbols it trades, as its watchlist and ticket
// do (quote mode, followed over the live feed), so the risk check prices an order from a tick seen
// within 2 s instead of reading a quote; STRESS_PLANT=unwatched-symbols leaves them unwatched: every
// order then reads a quote in the api window, where polls hold slots too.
import type { LimiterClass } from '../../src-main/gateway/limiter-classes.js';
import { startDeskSession, type DeskSession } from '../lib/desk-session.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';
import { STRESS_SYMBOLS, actionDriver, seededRandom, type ActionTally } from '../lib/ticket-actions.js';

export interface LoadOptions {
  actions?: number;
  /** The burst's length on the session clock. */
  withinMs?: number;
  maxPollingWaitMs?: number;
  seed?: number;
  /** The desk watches the symbols it trades (the watchlist's quote subscription). */
  watchTraded?: boolean;
  log?: (line: string) => void;
}

const STEP_MS = 10;
const RESTING_LIMITS = 20;

/** Moves the clock in small steps until `p` settles (budget waits are on the session clock). */
async function settleOn<T>(s: DeskSession, p: Promise<T>, capMs = 120_000): Promise<T> {
  let done = false;
  void p.finally(() => (done = true)).catch(() => undefined);
  for (let t = 0; !done; t += STEP_MS) {
    if (t > capMs) throw new Error(`no answer within ${capMs} ms of session time`);
    await s.clock.advance(STEP_MS);
    await s.drain();
  }
  return p;
}

/** The reads the risk check makes when no fresh price is known (counted whoever sends them). */
const PRICE_READS = ['/api/v1/quotes', '/api/v1/depth'];

interface Burst {
  tally: ActionTally;
  status429: number;
  burstMs: number;
  /** The most requests of each limiter class in any second of the session. */
  peaks: Record<LimiterClass, number>;
  /** `quotes` and `depth` requests from the burst's start until every action was answered. */
  priceReads: number;
}

async function burst(o: Required<LoadOptions>, polling: 'real' | 'off'): Promise<Burst> {
  const s = await startDeskSession();
  try {
    if (polling === 'off') {
      const r = await s.core.router.invoke('settings.update', {
        polling: { visibleMs: 600_000, hiddenMs: 600_000, openOrdersMs: 600_000 },
      });
      if (!r.ok) throw new Error(`polling settings refused: ${JSON.stringify(r.error)}`);
    }
    const random = seededRandom(o.seed);
    const driver = actionDriver(s, random);
    // The feed connects and the first books are read; then some resting orders to modify and cancel.
    await s.run(10_000, 100, () => s.engine.tick());
    if (o.watchTraded) {
      const watched = await s.core.router.invoke('market.watch', {
        mode: 'quote',
        symbols: STRESS_SYMBOLS.map((symbol) => ({ symbol, exchange: 'NSE' })),
      });
      if (!watched.ok) throw new Error(`market.watch refused: ${JSON.stringify(watched.error)}`);
    }
    for (let i = 0; i < RESTING_LIMITS; i++) await settleOn(s, driver.act('limit'));
    o.log(`load (${polling}): ${RESTING_LIMITS} resting orders placed; the burst starts`);
    await s.run(3_000, 100, () => s.engine.tick());
    const before = {
      ...driver.tally,
      placeMs: driver.tally.placeMs.length,
      acknowledged: driver.tally.acknowledged.length,
    };

    const priceReads = () => PRICE_READS.reduce((n, p) => n + (s.requests.byPath.get(p) ?? 0), 0);
    const readsBefore = priceReads();
    const t0 = s.clock.now();
    const gap = o.withinMs / o.actions;
    const pending: Promise<void>[] = [];
    for (let i = 0; i < o.actions; i++) {
      pending.push(driver.act());
      await s.clock.advance(gap);
      await s.drain();
    }
    const burstMs = s.clock.now() - t0;
    o.log(`load (${polling}): ${o.actions} actions sent in ${burstMs} ms`);
    await settleOn(s, Promise.all(pending));
    const t = driver.tally;
    // Only the burst's own figures: the resting orders placed before it are left out.
    return {
      tally: {
        ...t,
        placeMs: t.placeMs.slice(before.placeMs),
        acknowledged: t.acknowledged.slice(before.acknowledged),
        sent: Object.fromEntries(
          Object.entries(t.sent).map(([k, n]) => [k, n - (k === 'limit' ? RESTING_LIMITS : 0)]),
        ) as ActionTally['sent'],
        ok: Object.fromEntries(
          Object.entries(t.ok).map(([k, n]) => [k, n - (k === 'limit' ? RESTING_LIMITS : 0)]),
        ) as ActionTally['ok'],
      },
      status429: s.status429,
      burstMs,
      priceReads: priceReads() - readsBefore,
      peaks: { ...s.requests.peakPerSecondOf },
    };
  } finally {
    await s.stop();
  }
}

async function run(ctx: SuiteContext): Promise<void> {
  const o: Required<LoadOptions> = {
    actions: 200,
    withinMs: 1_000,
    maxPollingWaitMs: 100,
    seed: ctx.seed,
    watchTraded: ctx.plant !== 'unwatched-symbols',
    log: ctx.note,
  };
  const real = await burst(o, 'real');
  const quiet = await burst(o, 'off');
  const t = real.tally;
  const orders = t.sent.market + t.sent.limit;
  const acked = t.ok.market + t.ok.limit;
  const pairs = Math.min(t.placeMs.length, quiet.tally.placeMs.length);
  let worstBehindPolling = 0;
  for (let i = 0; i < pairs; i++)
    worstBehindPolling = Math.max(worstBehindPolling, t.placeMs[i]! - quiet.tally.placeMs[i]!);
  ctx.figure(
    'ticket actions / within (session clock)',
    `${Object.values(t.sent).reduce((a, n) => a + n, 0)} / ${real.burstMs} ms`,
  );
  ctx.figure('mix', JSON.stringify(t.sent));
  ctx.figure('orders sent / acknowledged', `${orders} / ${acked}`);
  ctx.figure(
    'modifies ok / sent, cancels ok / sent',
    `${t.ok.modify} / ${t.sent.modify}, ${t.ok.cancel} / ${t.sent.cancel}`,
  );
  ctx.figure('refusals (an order done meanwhile)', JSON.stringify(t.refused));
  ctx.figure('429 answers', real.status429);
  ctx.figure(
    'peak requests in any 1 s: order / smart / api',
    `${real.peaks.order} / ${real.peaks.smart} / ${real.peaks.api}`,
  );
  ctx.figure(
    'quotes + depth requests in the burst (polling on / off)',
    `${real.priceReads} / ${quiet.priceReads}${o.watchTraded ? '' : ' (traded symbols not watched)'}`,
  );
  ctx.figure(
    'worst order acknowledgement ms (polling on / off)',
    `${Math.max(...t.placeMs)} / ${Math.max(...quiet.tally.placeMs)}`,
  );
  ctx.figure('worst wait behind polling ms', worstBehindPolling);
  ctx.check('no 429 answer', real.status429 === 0, `${real.status429}`);
  ctx.check(
    'every order acknowledged',
    acked === orders,
    `${orders - acked} of ${orders} not: ${JSON.stringify(t.refused)}`,
  );
  ctx.check('the same orders in both bursts', t.placeMs.length === quiet.tally.placeMs.length);
  ctx.check(
    `no order waits behind polling more than ${o.maxPollingWaitMs} ms`,
    worstBehindPolling <= o.maxPollingWaitMs,
    `worst ${worstBehindPolling} ms`,
  );
}

export const suite: StressSuite = {
  name: 'load',
  description:
    '200 ticket actions within a second from the router: no 429, all acknowledged, polling never in the way',
  run,
};
