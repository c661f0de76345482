// GTT orders through the core against the real paper gateway (behind the fault proxy): placed, read,
// modified and cancelled over the gtt.* channels, risk-checked per leg, journalled, an unknown outcome
// settled from the GTT order book and never sent again (also across a restart), and a triggered GTT's
// fill reported once, as any other order's.
import { describe, expect, it } from 'vitest';
import { GTT_ID_PATTERN } from '../../../src-main/contract/index.js';
import {
  LIMITS,
  orderEventNames,
  startCore,
  until,
  usePaper,
  type Harness,
} from '../../support/core-harness.js';

const paper = usePaper();
const PLACE = '/api/v1/placegttorder';
const CANCEL = '/api/v1/cancelgttorder';

/** A SINGLE BUY CNC GTT 3 % under the market (leg limit 2 % under), through the router. */
function singleBuy(symbol: string, quantity: number) {
  const i = paper.inst('NSE', symbol);
  const ltp = paper.ltp(i);
  const trigger = paper.onTick(i, ltp * 0.97);
  const price = paper.onTick(i, ltp * 0.98);
  return {
    i,
    trigger,
    price,
    input: {
      trigger_type: 'SINGLE',
      exchange: 'NSE' as const,
      symbol,
      action: 'BUY' as const,
      product: 'CNC',
      quantity,
      pricetype: 'LIMIT' as const,
      price,
      triggerprice_sl: trigger,
    },
  };
}

async function book(h: Harness, status: 'active' | 'all' = 'all') {
  const r = await h.core.router.invoke('gtt.book', { status });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.gtts;
}

describe('GTT orders through the core', () => {
  it('places a SINGLE and an OCO, reads them, modifies one and cancels the other, all journalled', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const s = singleBuy('SBIN', 3);
      const placed = await h.core.router.invoke('gtt.place', s.input);
      expect(placed.ok ? 'placed' : placed.error.message).toBe('placed');
      const id = placed.ok ? placed.value.trigger_id : '';
      expect(id).toMatch(GTT_ID_PATTERN);

      const i = paper.inst('NSE', 'INFY');
      const ltp = paper.ltp(i);
      const oco = await h.core.router.invoke('gtt.place', {
        trigger_type: 'OCO',
        exchange: 'NSE',
        symbol: 'INFY',
        action: 'SELL',
        product: 'CNC',
        quantity: 2,
        price: paper.onTick(i, ltp),
        triggerprice_sl: paper.onTick(i, ltp * 0.95),
        stoploss: paper.onTick(i, ltp * 0.94),
        triggerprice_tg: paper.onTick(i, ltp * 1.05),
        target: paper.onTick(i, ltp * 1.06),
      });
      expect(oco.ok ? 'placed' : oco.error.message).toBe('placed');
      const ocoId = oco.ok ? oco.value.trigger_id : '';

      const rows = await book(h, 'active');
      expect(rows.map((g) => g.trigger_id).sort()).toEqual([id, ocoId].sort());
      expect(rows.find((g) => g.trigger_id === ocoId)).toMatchObject({
        trigger_type: 'two-leg',
        status: 'active',
        legs: [
          { action: 'SELL', quantity: 2 },
          { action: 'SELL', quantity: 2 },
        ],
      });

      const newTrigger = paper.onTick(s.i, paper.ltp(s.i) * 0.96);
      const modified = await h.core.router.invoke('gtt.modify', {
        ...s.input,
        trigger_id: id,
        quantity: 5,
        triggerprice_sl: newTrigger,
      });
      expect(modified).toMatchObject({ ok: true, value: { trigger_id: id } });
      expect((await book(h)).find((g) => g.trigger_id === id)).toMatchObject({
        trigger_prices: [newTrigger],
        legs: [{ quantity: 5 }],
      });

      expect(await h.core.router.invoke('gtt.cancel', { trigger_id: ocoId })).toMatchObject({ ok: true });
      expect((await book(h, 'all')).find((g) => g.trigger_id === ocoId)?.status).toBe('cancelled');
      expect((await book(h, 'active')).map((g) => g.trigger_id)).toEqual([id]);

      const journal = await h.core.router.invoke('journal.query', {});
      const ops = journal.ok ? journal.value.map((e) => `${e.operation}:${e.outcome}`) : [];
      expect(ops).toEqual(
        expect.arrayContaining([
          'placegttorder:ok',
          'placegttorder:ok',
          'modifygttorder:ok',
          'cancelgttorder:ok',
        ]),
      );
    } finally {
      await h.stop();
    }
  });

  it('refuses a leg over the quantity limit, and an OCO without its target, before anything is sent', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', {
        risk: { maxQuantityPerOrder: 10, maxValuePerOrder: 1e12, priceBandPercent: 10 },
      });
      const sent = paper.proxy.forwardedTo(PLACE);
      const big = await h.core.router.invoke('gtt.place', singleBuy('SBIN', 11).input);
      expect(big).toMatchObject({ ok: false, error: { kind: 'risk' } });
      expect(big.ok ? '' : big.error.message).toMatch(/quantity/i);

      const noTarget = await h.core.router.invoke('gtt.place', {
        ...singleBuy('SBIN', 1).input,
        trigger_type: 'OCO',
        triggerprice_tg: 99_999,
        stoploss: 1,
      });
      expect(noTarget).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(noTarget.ok ? '' : noTarget.error.message).toMatch(/target/);
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent);
    } finally {
      await h.stop();
    }
  });

  it('settles a timed-out placegttorder from the GTT book and never sends it again', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const sent = paper.proxy.forwardedTo(PLACE);
      paper.proxy.enqueue({ kind: 'delay', ms: 3000 }, PLACE);
      const pending = h.core.router.invoke('gtt.place', singleBuy('WIPRO', 4).input);
      // Counted once the gateway has answered the proxy: the GTT is in its book from here on.
      await until(() => paper.proxy.forwardedTo(PLACE) === sent + 1);
      await h.clock.advance(16_000); // past the client's mutation timeout
      const r = await pending;
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      expect(h.of('orders.unknown')).toMatchObject([{ operation: 'placegttorder' }]);
      await h.clock.advance(6000);
      await h.core.pollNow();
      await h.core.pollNow();
      const settled = h.of('orders.reconciled');
      expect(settled).toHaveLength(1);
      expect(settled[0]).toMatchObject({ operation: 'placegttorder', found: true });
      expect(settled[0]?.triggerId).toMatch(GTT_ID_PATTERN);
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sent + 1);
      const journal = await h.core.router.invoke('journal.query', { operation: 'placegttorder' });
      expect(journal.ok && journal.value[0]).toMatchObject({
        outcome: 'unknown',
        resolution: { found: true, orderid: settled[0]?.triggerId },
      });
    } finally {
      await h.stop();
    }
  }, 15_000);

  it('settles a cancel whose answer was lost after a restart, sending nothing again', async () => {
    const first = await startCore(paper);
    const { dataDir, keychain } = first;
    let id: string | undefined;
    try {
      await first.core.router.invoke('settings.update', LIMITS);
      const placed = await first.core.router.invoke('gtt.place', singleBuy('TCS', 1).input);
      id = placed.ok ? placed.value.trigger_id : '';
      const sent = paper.proxy.forwardedTo(CANCEL);
      paper.proxy.enqueue({ kind: 'drop' }, CANCEL); // reaches the gateway, the answer is lost
      const r = await first.core.router.invoke('gtt.cancel', { trigger_id: id });
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      expect(paper.proxy.forwardedTo(CANCEL)).toBe(sent + 1);
    } finally {
      await first.core.stop();
    }
    const second = await startCore(paper, { dataDir, keychain });
    try {
      const sent = paper.proxy.forwardedTo(CANCEL);
      await second.core.pollNow();
      expect(second.of('orders.reconciled')).toMatchObject([
        { operation: 'cancelgttorder', found: true, triggerId: id },
      ]);
      expect(paper.proxy.forwardedTo(CANCEL)).toBe(sent);
      // Settled once: another read reports nothing more.
      await second.core.pollNow();
      expect(second.of('orders.reconciled')).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });

  it("reports a triggered GTT's fill once, as any other order's, with one notification", async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow(); // baseline
      const s = singleBuy('HDFCBANK', 2);
      const placed = await h.core.router.invoke('gtt.place', s.input);
      expect(placed).toMatchObject({ ok: true });
      const id = placed.ok ? placed.value.trigger_id : '';
      // The price falls through the trigger: the GTT places its BUY LIMIT, which is marketable.
      paper.gw.gateway.market.setPrice(s.i, paper.onTick(s.i, s.trigger * 0.995));
      for (let n = 0; n < 3; n++) {
        paper.gw.clock.advance(1000);
        paper.engine().tick();
      }
      const row = (await book(h)).find((g) => g.trigger_id === id);
      expect(row?.status).toBe('triggered');
      const orderid = row?.legs[0]?.triggered_order_id;
      expect(orderid).toBeTruthy();
      const events = await h.during(async () => {
        await h.core.pollNow();
        await h.core.pollNow();
      });
      const filled = events.filter((e) => e.name === 'orders.filled');
      expect(filled).toHaveLength(1);
      expect(filled[0]?.payload).toMatchObject({ order: { orderid } });
      expect(orderEventNames(await h.during(() => h.core.pollNow()))).not.toContain('orders.filled');
      expect(h.notifications.filter((n) => n.kind === 'fill')).toHaveLength(1);
    } finally {
      await h.stop();
    }
  });
});
