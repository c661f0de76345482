// margin, pnl/symbols and analyzer/toggle over real HTTP: basket margin against leverage figures
// computed by hand (§11.1: equity MIS 5×, CNC 1×, futures 10×, options full premium), the sandbox's
// per-symbol P&L after a fill, and the toggle that cannot leave analyze mode.
import { describe, expect, it } from 'vitest';
import {
  AnalyzerToggleResponse,
  MarginResponse,
  PnlSymbolsResponse,
} from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useEngineGateway } from '../../support/paper-gateway.js';

const gw = useEngineGateway();

const pos = (fields: Record<string, unknown>) => ({ product: 'NRML', pricetype: 'MARKET', ...fields });

describe('margin', () => {
  it('sums each position value over its leverage, exact to the paisa fraction', async () => {
    const sbin = gw.instrument('NSE', 'SBIN');
    gw.gateway.market.setPrice(sbin, 800.1);
    expect(gw.gateway.market.lastPrice(sbin)).toBe(800.1);
    const r = await gw.api('margin', gw.apiKey, {
      positions: [
        // 10 × 1234.55 / 5 = 2469.1
        pos({
          symbol: 'RELIANCE',
          exchange: 'NSE',
          action: 'BUY',
          quantity: '10',
          product: 'MIS',
          pricetype: 'LIMIT',
          price: '1234.55',
        }),
        // 75 × 24000.05 / 10 = 180000.375
        pos({
          symbol: 'NIFTY29DEC26FUT',
          exchange: 'NFO',
          action: 'SELL',
          quantity: '75',
          pricetype: 'LIMIT',
          price: '24000.05',
        }),
        // 65 × 123.45 / 1 = 8024.25 (a bought option: the full premium)
        pos({
          symbol: 'NIFTY01DEC2626000CE',
          exchange: 'NFO',
          action: 'BUY',
          quantity: '65',
          pricetype: 'LIMIT',
          price: '123.45',
        }),
        // 3 × 800.1 (MARKET: the last price) / 1 = 2400.3
        pos({ symbol: 'sbin', exchange: 'NSE', action: 'BUY', quantity: '3', product: 'CNC' }),
      ],
    });
    expect(r.status).toBe(200);
    const body = expectExact(MarginResponse, r.json);
    expect(body.data).toEqual({
      total_margin_required: 192894.025,
      span_margin: 0,
      exposure_margin: 192894.025,
    });
  });

  it('a sold option also blocks its full premium (option_sell_leverage 1)', async () => {
    const r = await gw.api('margin', gw.apiKey, {
      positions: [
        pos({
          symbol: 'NIFTY01DEC2626000PE',
          exchange: 'NFO',
          action: 'SELL',
          quantity: 65,
          pricetype: 'LIMIT',
          price: 0.05,
        }),
      ],
    });
    expect(r.body['data']).toEqual({ total_margin_required: 3.25, span_margin: 0, exposure_margin: 3.25 });
  });

  it('refuses an unknown symbol, naming the position, and an empty basket', async () => {
    const a = await gw.api('margin', gw.apiKey, {
      positions: [
        pos({ symbol: 'RELIANCE', exchange: 'NSE', action: 'BUY', quantity: 1 }),
        pos({ symbol: 'NOPE', exchange: 'NSE', action: 'BUY', quantity: 1 }),
      ],
    });
    expect([a.status, a.body['message']]).toEqual([400, 'positions[1]: symbol NOPE not found in NSE']);
    const b = await gw.api('margin', gw.apiKey, { positions: [] });
    expect([b.status, b.body['message']]).toEqual([400, 'positions must hold at least one position']);
  });
});

describe('pnl/symbols', () => {
  it('lists each position with its P&L and the totals', async () => {
    const key = gw.newKey();
    const empty = expectExact(PnlSymbolsResponse, (await gw.api('pnl/symbols', key)).json);
    expect(empty).toMatchObject({ data: [], total_pnl: 0, mode: 'analyze' });
    const placed = await gw.api('placeorder', key, {
      strategy: 's',
      exchange: 'NSE',
      symbol: 'INFY',
      action: 'BUY',
      quantity: 4,
      pricetype: 'MARKET',
      product: 'MIS',
    });
    expect(placed.status).toBe(200);
    gw.engine.tick();
    const infy = gw.instrument('NSE', 'INFY');
    const fill = gw.engine.positions(gw.gateway.keys.verify(key) ?? '')[0]?.average_price ?? 0;
    gw.gateway.market.setPrice(infy, fill + 2.5);
    const r = await gw.api('pnl/symbols', key);
    expect(r.status).toBe(200);
    const body = expectExact(PnlSymbolsResponse, r.json);
    expect(body.data).toEqual([
      {
        symbol: 'INFY',
        exchange: 'NSE',
        product: 'MIS',
        quantity: 4,
        pnl: 10,
        unrealized_pnl: 10,
        today_realized_pnl: 0,
        total_pnl_today: 10,
      },
    ]);
    expect(body).toMatchObject({
      total_pnl: 10,
      total_unrealized_pnl: 10,
      total_today_realized_pnl: 0,
      total_pnl_today: 10,
    });
  });
});

describe('analyzer/toggle', () => {
  it('switching to analyze answers as upstream; live is refused, not pretended', async () => {
    const on = await gw.api('analyzer/toggle', gw.apiKey, { mode: true });
    expect(on.status).toBe(200);
    const body = expectExact(AnalyzerToggleResponse, on.json);
    expect(body.data).toMatchObject({
      analyze_mode: true,
      mode: 'analyze',
      message: 'Analyzer mode switched to analyze',
    });
    const off = await gw.api('analyzer/toggle', gw.apiKey, { mode: false });
    expect(off.status).toBe(400);
    expect(off.body['message']).toMatch(/always runs in analyze mode/);
    const still = await gw.api('analyzer', gw.apiKey);
    expect((still.body['data'] as Record<string, unknown>)['mode']).toBe('analyze');
    const missing = await gw.api('analyzer/toggle', gw.apiKey, {});
    expect([missing.status, missing.body['message']]).toEqual([400, 'mode is required']);
    const text = await gw.api('analyzer/toggle', gw.apiKey, { mode: 'yes' });
    expect([text.status, text.body['message']]).toEqual([400, 'mode must be true or false']);
  });
});
