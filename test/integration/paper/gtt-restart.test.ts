// GTT orders over real HTTP against the embedded paper gateway (ManualClock), in the live server's
// recorded shapes (test/fixtures/openalgo/live-gtt): durable across a restart of the paper gateway.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEngineGateway, tickRound } from '../../support/paper-gateway.js';
import {
  accepted,
  book,
  expectInvariants,
  funds,
  future,
  ltp,
  movePrice,
  single,
  useGttGateway,
} from './gtt-fixture.js';

const { oco } = useGttGateway();

describe('a restart of the paper gateway', () => {
  it('keeps active GTTs active with their reservation, and they still trigger', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-gtt-'));
    let g = await startEngineGateway({ dataDir });
    const key = g.apiKey;
    try {
      const i = future(g);
      const p = ltp(g, i);
      const sl = tickRound(i, p * 0.95);
      const tg = tickRound(i, p * 1.05);
      const ocoId = accepted(
        await g.api('placegttorder', key, { ...oco(i, i.lotsize, sl, tg), price: tickRound(i, p) }),
      );
      const s = g.instrument('NSE', 'SBIN');
      const singleId = accepted(await g.api('placegttorder', key, single(s, tickRound(s, ltp(g, s) * 0.9))));
      const cancelledId = accepted(
        await g.api('placegttorder', key, single(s, tickRound(s, ltp(g, s) * 0.8))),
      );
      expect((await g.api('cancelgttorder', key, { strategy: 'x', trigger_id: cancelledId })).status).toBe(
        200,
      );
      const rows = await book(g, key, 'all');
      const fundsBefore = await funds(g, key);

      await g.stop();
      g = await startEngineGateway({ dataDir, apiKey: key });

      expect(await book(g, key, 'all')).toEqual(rows);
      expect((await book(g, key)).map((r) => r.trigger_id).sort()).toEqual([ocoId, singleId].sort());
      expect(await funds(g, key)).toEqual(fundsBefore);

      // The OCO's stoploss fires on the restarted gateway's prices (its own master's instrument).
      const again = future(g);
      movePrice(g, again, sl - again.tickSize);
      const after = await book(g, key, 'all');
      const fired = after.find((r) => r.trigger_id === ocoId);
      expect(fired).toMatchObject({ status: 'triggered', margin_blocked: 0 });
      expect(fired?.legs[0]?.triggered_order_id).toMatch(/^\d+$/);
      expect(fired?.legs[1]?.triggered_order_id).toBeNull();
      expect(after.find((r) => r.trigger_id === singleId)?.status).toBe('active');
      const orders = (await g.api('orderbook', key)).body.data as { orders: { orderid: string }[] };
      expect(orders.orders.map((o) => o.orderid)).toEqual([fired?.legs[0]?.triggered_order_id]);
      expectInvariants(g);

      // A reset of the paper books (Settings, --reset) drops the GTTs with everything else.
      g.engine.reset();
      expect(await book(g, key, 'all')).toEqual([]);
      expect((await funds(g, key)).used).toBe(0);
      expectInvariants(g);
    } finally {
      await g.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
