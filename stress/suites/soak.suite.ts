// Soak: a trading session on the injectable clock. The core (driven through its router, as the
// desk drives it) and the paper gateway share one clock time that moves in 1 s steps with loopback
// I/O drained between them, so the watcher's polls, the feed's ticks and pings, the engine's 250 ms
// matching and the rate budget all run at their real intervals while a ticket action goes out
// every 8 s. Invariants: every fill told exactly once and the fill events equal to the gateway's
// trade book, the core's heap growth under 5 MB, never more requests of one limiter class (order
// mutations, smart orders, the rest) in a second than the budget allows that class, no 429.
// The gateway runs in a worker thread (its own V8 isolate): heapUsed here is then this isolate's,
// the core's and the harness's records, not the gateway's day of books. A child process would
// split the heap too but needs its own clock protocol and start-up; a heap snapshot attributes by
// retainer but costs seconds and hundreds of MB per snapshot.
import { auditFills, fillChecks, fillFigures } from '../lib/fill-audit.js';
import { startThreadedDeskSession } from '../lib/desk-session.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';
import { actionDriver, seededRandom } from '../lib/ticket-actions.js';

const HOUR_MS = 3_600_000;
/** The paper engine's real matching period. */
const ENGINE_TICK_MS = 250;
const STEP_MS = 1_000;
/** One ticket action per 8 s of session: ~2,900 in 6.5 h. */
const ACTION_EVERY_MS = 8_000;
/** The heap baseline is taken once the session has warmed up (caches, JIT, first books). */
const WARMUP_MS = 30 * 60_000;
/** The trader keeps the desk open but sends it to the tray over lunch (11:30–14:00 IST). */
const HIDDEN_FROM_MS = 2.25 * HOUR_MS;
const HIDDEN_UNTIL_MS = 4.75 * HOUR_MS;
const MAX_HEAP_GROWTH_MB = 5;
/** The paper profile's rateLimitPerSecond: the budget of each limiter class. */
const BUDGET = 10;

async function heapUsedAfterGc(): Promise<number | undefined> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  // fetch leaves its finished requests' signals to FinalizationRegistry callbacks, which run on
  // later turns of the event loop: collect, let them run, collect again, or the figure counts them.
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  gc();
  return process.memoryUsage().heapUsed;
}

const cpuSeconds = (u: NodeJS.CpuUsage) => Number(((u.user + u.system) / 1e6).toFixed(1));

async function run(ctx: SuiteContext): Promise<void> {
  // STRESS_SOAK_HOURS shortens the session while working on it; the figures are at 6.5 h.
  const sessionMs = Number(process.env.STRESS_SOAK_HOURS ?? 6.5) * HOUR_MS;
  const cpu0 = process.cpuUsage();
  // Matching at its real period, on the session's clock (the engine's own ticker is wall-clock).
  const s = await startThreadedDeskSession({
    engineTickMs: ENGINE_TICK_MS,
    keepAnswers: ctx.plant === 'core-keeps-answers',
  });
  try {
    const driver = actionDriver(s, seededRandom(ctx.seed));
    let heapBase: number | undefined;
    let elapsed = 0;
    let visibility = true;
    const inFlight: Promise<void>[] = [];
    await s.run(sessionMs, STEP_MS, async () => {
      elapsed += STEP_MS;
      // Not awaited: an action waiting for the rate budget waits on this clock, which only moves here.
      if (elapsed % ACTION_EVERY_MS === 0) inFlight.push(driver.act());
      if (elapsed === WARMUP_MS) heapBase = await heapUsedAfterGc();
      if (elapsed === HIDDEN_FROM_MS || elapsed === HIDDEN_UNTIL_MS) {
        const r = await s.core.router.invoke('watcher.setVisibility', {
          visible: elapsed === HIDDEN_UNTIL_MS,
        });
        visibility &&= r.ok;
      }
      if (elapsed % HOUR_MS === 0)
        ctx.note(`${elapsed / HOUR_MS} h simulated, ${driver.tally.acknowledged.length} orders acknowledged`);
    });
    // The last actions settle; the feed and a final poll bring every book up to date.
    await s.run(5_000, STEP_MS);
    await Promise.all(inFlight);
    await s.core.pollNow();
    await s.drain();
    const heapEnd = await heapUsedAfterGc();

    const audit = await auditFills(s);
    const peaks = s.requests.peakPerSecondOf;
    const peak = Math.max(...Object.values(peaks));
    const growthMb =
      heapBase !== undefined && heapEnd !== undefined ? (heapEnd - heapBase) / 2 ** 20 : undefined;
    const t = driver.tally;
    ctx.figure('session (simulated)', `${sessionMs / HOUR_MS} h, window hidden 11:30–14:00 IST`);
    ctx.figure(
      'ticket actions',
      Object.values(t.sent).reduce((a, n) => a + n, 0),
    );
    ctx.figure('orders sent / acknowledged', `${t.sent.market + t.sent.limit} / ${t.acknowledged.length}`);
    ctx.figure('modifies ok / sent', `${t.ok.modify} / ${t.sent.modify}`);
    ctx.figure('cancels ok / sent', `${t.ok.cancel} / ${t.sent.cancel}`);
    ctx.figure('refreshes ok / sent', `${t.ok.refresh} / ${t.sent.refresh}`);
    ctx.figure('refusals', JSON.stringify(t.refused));
    fillFigures(ctx, audit);
    ctx.figure('cancel events / cancelled orders', `${audit.cancelEvents} / ${audit.cancelledOrders}`);
    ctx.figure(
      'fill notifications (repeated)',
      `${audit.fillNotifications} (${audit.duplicateNotifications})`,
    );
    ctx.figure('core requests', s.requests.count);
    ctx.figure(
      'peak requests in any 1 s: order / smart / api (all)',
      `${peaks.order} / ${peaks.smart} / ${peaks.api} (${s.requests.peakPerSecond})`,
    );
    ctx.figure('429 answers', s.status429);
    ctx.figure(
      'core heap growth after warm-up (MB, gateway in its own thread)',
      growthMb === undefined ? 'n/a' : growthMb.toFixed(2),
    );
    ctx.figure('CPU s (core + gateway thread, one process)', cpuSeconds(process.cpuUsage(cpu0)));

    fillChecks(ctx, audit);
    ctx.check(
      'every cancellation told exactly once',
      audit.duplicateCancels === 0 && audit.missingCancels === 0,
      `${audit.duplicateCancels} repeated, ${audit.missingCancels} missing`,
    );
    ctx.check(
      'no fill notification repeated',
      audit.duplicateNotifications === 0,
      `${audit.duplicateNotifications} repeated`,
    );
    ctx.check('no 429 answer', s.status429 === 0, `${s.status429}`);
    ctx.check(
      `never more than ${BUDGET} requests of one limiter class in a second`,
      peak <= BUDGET,
      JSON.stringify(peaks),
    );
    ctx.check('the window hidden and shown again', visibility);
    ctx.check(
      `the core's heap growth under ${MAX_HEAP_GROWTH_MB} MB`,
      growthMb !== undefined && growthMb < MAX_HEAP_GROWTH_MB,
      growthMb === undefined ? 'not measured: run node with --expose-gc' : `${growthMb.toFixed(2)} MB`,
    );
    ctx.check(
      'at least 1,000 orders acknowledged',
      t.acknowledged.length >= 1000 || sessionMs < 6 * HOUR_MS,
      `${t.acknowledged.length}`,
    );
  } finally {
    await s.stop();
  }
}

export const suite: StressSuite = {
  name: 'soak',
  description:
    'a 6.5-hour session on the injectable clock: fills told exactly once, heap flat, within budget',
  run,
};
