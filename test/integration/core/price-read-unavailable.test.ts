// A MARKET order needs a last price for the risk check; when the gateway cannot give one because it is
// unreachable, the order is not sent and the trader is told the gateway is the reason (kind `network`),
// not that a risk limit refused it. A price that is simply absent is still a risk refusal.
import { expect, it } from 'vitest';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
const QUOTES = '/api/v1/quotes';

/** Runs `call` while moving the core's clock on, so read retries (timed on that clock) happen. */
async function withClock<T>(h: Harness, call: Promise<T>): Promise<T> {
  let done = false;
  void call.finally(() => (done = true));
  while (!done) {
    await h.clock.advance(500);
    await new Promise((r) => setTimeout(r, 5));
  }
  return call;
}

it('refuses a MARKET order as network when the price read cannot reach the gateway, and sends nothing', async () => {
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    await h.core.pollNow();
    const placed = paper.proxy.forwardedTo('/api/v1/placeorder');
    // Every try of the price read is cut before it reaches the gateway.
    paper.proxy.enqueue(
      Array.from({ length: 5 }, () => ({ kind: 'drop', forward: false }) as const),
      QUOTES,
    );
    const r = await withClock(
      h,
      h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'TCS',
        action: 'BUY',
        quantity: 1,
        product: 'MIS',
        pricetype: 'MARKET',
      }),
    );
    paper.proxy.reset();
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('network');
    expect(r.error.message).toMatch(/^the gateway did not give TCS's last price for the risk check: /);
    expect(r.error.journalId).toBeTruthy();
    expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(placed);

    // The gateway answering with no usable price is the risk check's own refusal, as before.
    paper.proxy.enqueue({ kind: 'garbage', style: 'html' }, QUOTES);
    const absent = await withClock(
      h,
      h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'TCS',
        action: 'BUY',
        quantity: 2,
        product: 'MIS',
        pricetype: 'MARKET',
      }),
    );
    paper.proxy.reset();
    expect(absent).toMatchObject({ ok: false, error: { kind: 'risk' } });
    expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(placed);
  } finally {
    paper.proxy.reset();
    await h.stop();
  }
});
