// Restarts, the crash-and-resend case (the issue's reproduction): the paper gateway (a child process)
// holds every placeorder answer 3 s after placing the order; the core (browser mode's host, a process
// of its own) is SIGKILLed 600 ms after the desk sent an order, started again on the same data dir,
// and the desk presses the same order again 4 s after the first, past the 2 s duplicate window.
// Invariants: the resend is held (unresolved_duplicate, its reason naming the first order's time),
// the gateway's book holds exactly one such order, the interrupted entry is settled from the book
// before the 20 s adoption age, and only the deliberate override (confirmDuplicate) places a second.
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { OrderBookResponse } from '../../src-main/contract/index.js';
import { coreLives, until } from './core-lives.js';
import { freePort, gatewayApi, killHard, sleep, startGatewayChild } from './gateway-child.js';
import type { SuiteContext } from './suite.js';

/** The gateway holds each placeorder answer this long after placing (the issue's reproduction). */
const PLACE_DELAY_MS = 3_000;
/** The core is SIGKILLed this long after the desk sent the order. */
const KILL_AFTER_MS = 600;
/** The trader presses the same order again this long after the first. */
const RESEND_AFTER_MS = 4_000;
/** A restarted core adopts an interrupted intent this long after it (INTERRUPTED_MIN_AGE_MS) when the book cannot say. */
const ADOPTION_AGE_MS = 20_000;

/** One of its kind: a quantity no other suite's order has. */
const ORDER = {
  exchange: 'NSE',
  symbol: 'ITC',
  action: 'BUY',
  quantity: 37,
  pricetype: 'MARKET',
  product: 'MIS',
} as const;

export async function crashResendScenario(ctx: SuiteContext): Promise<void> {
  const base = join(ctx.tmpDir, 'crash-resend');
  const key = randomBytes(32).toString('hex');
  const port = await freePort();
  const gateway = await startGatewayChild(port, join(base, 'paper'), key, [
    '--fault-place-delay-ms',
    String(PLACE_DELAY_MS),
  ]);
  const api = gatewayApi(`http://127.0.0.1:${port}`, key);
  const lives = coreLives({
    base,
    key,
    profile: { name: 'Slow gateway child', baseUrl: `http://127.0.0.1:${port}` },
  });
  const { sink } = lives;

  const ours = async () =>
    OrderBookResponse.parse(await api('orderbook')).data.orders.filter(
      (o) => o.symbol === ORDER.symbol && o.action === ORDER.action && o.quantity === ORDER.quantity,
    );
  const journal = () => lives.placeorderJournal();

  try {
    await lives.bringUp();
    const t0 = Date.now();
    const { reply } = await lives.link().send('orders.place', { ...ORDER });
    await sleep(KILL_AFTER_MS);
    await lives.core().kill();
    const first = await reply;
    const restartMs = (await lives.bringUp()).connectedMs;
    const backAt = Date.now() - t0;
    await sleep(Math.max(0, RESEND_AFTER_MS - (Date.now() - t0)));
    const resentAt = Date.now() - t0;
    const resend = await lives.link().invoke('orders.place', { ...ORDER });
    const afterResend = (await ours()).length;

    // The interrupted entry, settled from the book (at once when the book already shows the order).
    const settled = await until(
      async () => (await journal()).some((e) => e.error?.kind === 'interrupted' && e.resolution),
      ADOPTION_AGE_MS,
    );
    const entries = await journal();
    const interrupted = entries.find((e) => e.error?.kind === 'interrupted');
    const settledAfterIntent =
      interrupted?.resolution !== undefined ? interrupted.resolution.time - interrupted.time : undefined;

    const override = await lives.link().invoke('orders.place', { ...ORDER, confirmDuplicate: true });
    const afterOverride = (await ours()).length;

    ctx.figure(
      'crash-resend: first order',
      `killed ${KILL_AFTER_MS} ms after sending (gateway answers after ${PLACE_DELAY_MS} ms); desk got ${first.ok ? 'ok' : first.error.kind}`,
    );
    ctx.figure(
      'crash-resend: restart to "connected"',
      `${restartMs} ms (back ${backAt} ms after the first send)`,
    );
    ctx.figure(
      'crash-resend: same order again',
      `${resentAt} ms after the first: ${resend.ok ? 'SENT' : `${resend.error.kind}: ${resend.error.message}`}`,
    );
    ctx.figure(
      'crash-resend: interrupted entry settled',
      settledAfterIntent !== undefined
        ? `${settledAfterIntent} ms after its intent (${interrupted?.resolution?.found ? 'found' : 'not found'})`
        : 'NOT settled',
    );
    ctx.figure(
      'crash-resend: such orders in the gateway book after the resend / the override',
      `${afterResend} / ${afterOverride}`,
    );

    ctx.check(
      'crash-resend: the resend is held with the reason in words',
      !resend.ok &&
        resend.error.kind === 'unresolved_duplicate' &&
        /^the same order from \d\d:\d\d:\d\d (is still being reconciled|was placed after all)/.test(
          resend.error.message,
        ),
      resend.ok ? 'sent' : `${resend.error.kind}: ${resend.error.message}`,
    );
    ctx.check(
      'crash-resend: exactly one such order in the gateway book',
      afterResend === 1,
      `${afterResend}`,
    );
    ctx.check(
      'crash-resend: the interrupted entry settled from the book before the 20 s adoption age',
      settled &&
        interrupted?.resolution?.found === true &&
        (settledAfterIntent ?? Infinity) < ADOPTION_AGE_MS,
      `${settledAfterIntent ?? 'never'} ms`,
    );
    ctx.check(
      'crash-resend: only the deliberate override places a second',
      override.ok && afterOverride === 2,
      override.ok ? `${afterOverride} in the book` : `${override.error.kind}: ${override.error.message}`,
    );
    ctx.check(
      'crash-resend: every bridge frame within the contract',
      sink.badFrames.length === 0,
      sink.badFrames[0],
    );
  } finally {
    await lives.stop();
    await killHard(gateway);
  }
}
