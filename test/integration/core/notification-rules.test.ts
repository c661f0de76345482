// Notification rules through the core against the paper gateway: a fill under `in_app` reaches the
// window (alerts.raised, tagged) but no OS notification; under `os` both; under `off` neither. A
// rule changed by settings.update applies to the next event at once.
import { expect, it } from 'vitest';
import { LIMITS, restingBuy, startCore, usePaper, type Paper } from '../../support/core-harness.js';

const paper = usePaper();

/** Moves the market through the limit and lets the engine match (one paper second later). */
function fillAt(i: ReturnType<Paper['inst']>, limit: number) {
  paper.gw.gateway.market.setPrice(i, paper.onTick(i, limit * 0.99));
  paper.gw.clock.advance(1000);
  paper.engine().tick();
}

it('each fill is routed by the rule in force when it happens', async () => {
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', { ...LIMITS, alerts: { fill: 'in_app' } });
    await h.core.pollNow();
    const deliveries: (string | undefined)[] = [];
    for (const [symbol, rule] of [
      ['TCS', 'in_app'],
      ['ITC', 'os'],
      ['WIPRO', 'off'],
    ] as const) {
      await h.core.router.invoke('settings.update', { alerts: { fill: rule } });
      const { i, limit } = await restingBuy(paper, h, symbol, 10);
      await h.core.pollNow();
      fillAt(i, limit);
      await h.core.pollNow();
      deliveries.push(
        h.of('alerts.raised').find((a) => a.kind === 'fill' && a.title.includes(symbol))?.delivery,
      );
    }
    // The window heard of TCS (in-app) and ITC (OS), not WIPRO (off).
    expect(deliveries).toEqual(['in_app', 'os', undefined]);
    // Only ITC's fill left the window.
    expect(h.notifications.filter((n) => n.kind === 'fill').map((n) => n.title)).toEqual([
      expect.stringMatching(/^BUY 10 ITC @ ₹[\d,]+\.\d{2} filled$/),
    ]);
  } finally {
    await h.stop();
  }
});
