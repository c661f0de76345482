// Account extras of the real gateway over the engine (gateway-behaviour §5.6, §10): the margin
// calculator, the analyzer's per-symbol P&L and the analyzer switch. The paper gateway is a sandbox:
// it is always in analyze mode, so switching to live is refused rather than pretended.
import {
  AnalyzerToggleRequest,
  ApiKeyRequest,
  MarginRequest,
  type AnalyzerToggleResponse,
  type MarginResponse,
  type PnlSymbolsResponse,
} from '../../../contract/index.js';
import { basketMargin } from '../../engine/basket-margin.js';
import { analyzerStatus } from '../../engine/composite-close.js';
import type { TradingEngine } from '../../engine/engine.js';
import type { LeverageConfig } from '../../engine/margin.js';
import { toRupees } from '../../engine/units.js';
import type { InstrumentMaster } from '../../instruments/instrument.js';
import type { Market } from '../../market/market.js';
import { HttpError, type RoutePlugin } from '../route-kit.js';

export interface AccountExtraDeps {
  engine: TradingEngine;
  master: InstrumentMaster;
  market: Market;
  leverage: LeverageConfig;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

export const LIVE_REFUSED =
  'The paper gateway is a sandbox and always runs in analyze mode: there is no live broker to switch to';

export function accountExtraRoutes(deps: AccountExtraDeps): RoutePlugin {
  const { engine } = deps;
  return (app, kit) => {
    app.post('/api/v1/margin', async (request): Promise<MarginResponse> => {
      const req = kit.parse(MarginRequest, request.body);
      kit.account(req.apikey, 'api', '/api/v1/margin');
      const m = basketMargin(req.positions, deps.master, deps.market, deps.leverage);
      if (!m.ok) throw new HttpError(m.status, m.message);
      const total = toRupees(m.totalUnits);
      return {
        status: 'success',
        data: { total_margin_required: total, span_margin: 0, exposure_margin: total },
      };
    });

    app.post('/api/v1/pnl/symbols', async (request): Promise<PnlSymbolsResponse> => {
      const req = kit.parse(ApiKeyRequest, request.body);
      const account = kit.account(req.apikey, 'api', '/api/v1/pnl/symbols');
      const data = engine.positions(account).map((p) => ({
        symbol: p.symbol,
        exchange: p.exchange,
        product: p.product,
        quantity: p.quantity,
        pnl: round2(p.realised_pnl + p.unrealised_pnl),
        unrealized_pnl: round2(p.unrealised_pnl),
        today_realized_pnl: round2(p.realised_pnl),
        total_pnl_today: round2(p.realised_pnl + p.unrealised_pnl),
      }));
      const sum = (f: (r: (typeof data)[number]) => number) => round2(data.reduce((a, r) => a + f(r), 0));
      return {
        status: 'success',
        data,
        total_pnl: sum((r) => r.pnl),
        total_unrealized_pnl: sum((r) => r.unrealized_pnl),
        total_today_realized_pnl: sum((r) => r.today_realized_pnl),
        total_pnl_today: sum((r) => r.total_pnl_today),
        mode: 'analyze',
      };
    });

    app.post('/api/v1/analyzer/toggle', async (request): Promise<AnalyzerToggleResponse> => {
      const req = kit.parse(AnalyzerToggleRequest, request.body);
      const account = kit.account(req.apikey, 'api', '/api/v1/analyzer/toggle');
      if (!req.mode) throw new HttpError(400, LIVE_REFUSED);
      const s = analyzerStatus(engine, account).data;
      return {
        status: 'success',
        data: {
          analyze_mode: true,
          mode: 'analyze',
          message: 'Analyzer mode switched to analyze',
          total_logs: s.total_logs,
        },
      };
    });
  };
}
