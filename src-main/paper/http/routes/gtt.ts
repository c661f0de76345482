// HTTP routes of GTT orders (placegttorder, modifygttorder, cancelgttorder, gttorderbook) over the
// GTT book, answering in the live server's shapes: `{status, trigger_id, mode}` for the mutations,
// rows with legs, trigger prices and margin for the book, 404 "No active GTT with trigger_id '…'".
import {
  CancelGttOrderRequest,
  GttOrderBookRequest,
  ModifyGttOrderRequest,
  PlaceGttOrderRequest,
  type GttIdResponse,
  type GttOrderBookResponse,
  type GttRecord,
} from '../../../contract/index.js';
import type { EngineResult } from '../../engine/engine.js';
import type { GttBook } from '../../engine/gtt-book.js';
import type { GttRow } from '../../engine/gtt-store.js';
import { toRupees } from '../../engine/units.js';
import { HttpError, type RoutePlugin } from '../route-kit.js';

/** The sandbox marks its account and order answers with the mode it trades in. */
const MODE = { mode: 'analyze' } as const;

function accepted(result: EngineResult<GttRow>): GttRow {
  if (result.ok) return result.value;
  throw new HttpError(result.status, result.message, MODE);
}

/** `2026-10-03T09:44:03.824000`: ISO local time in IST without a zone, as the live server writes it. */
export function istIso(ms: number): string {
  const iso = new Date(ms + 19_800_000).toISOString(); // 2026-10-03T09:44:03.824Z
  return `${iso.slice(0, 23)}000`;
}

export function gttRecord(g: GttRow): GttRecord {
  return {
    trigger_id: g.trigger_id,
    trigger_type: g.trigger_type,
    status: g.status,
    symbol: g.symbol,
    exchange: g.exchange,
    strategy: g.strategy,
    trigger_prices: g.legs.map((l) => toRupees(l.trigger_price)),
    last_price: toRupees(g.last_price),
    legs: g.legs.map((l) => ({
      action: l.action,
      quantity: l.quantity,
      price: toRupees(l.price),
      pricetype: l.pricetype,
      product: l.product,
      triggered_order_id: l.triggered_order_id,
    })),
    margin_blocked: toRupees(g.margin_blocked),
    created_at: istIso(g.created_ms),
    updated_at: istIso(g.updated_ms),
    expires_at: istIso(g.expires_ms),
  };
}

export function gttRoutes(book: GttBook): RoutePlugin {
  return (app, kit) => {
    app.post('/api/v1/placegttorder', async (request): Promise<GttIdResponse> => {
      const { apikey, ...req } = kit.parse(PlaceGttOrderRequest, request.body);
      const account = kit.account(apikey, 'order', '/api/v1/placegttorder');
      const g = accepted(book.place(account, req));
      return { status: 'success', trigger_id: g.trigger_id, ...MODE };
    });

    app.post('/api/v1/modifygttorder', async (request): Promise<GttIdResponse> => {
      const { apikey, trigger_id, ...req } = kit.parse(ModifyGttOrderRequest, request.body);
      const account = kit.account(apikey, 'order', '/api/v1/modifygttorder');
      const g = accepted(book.modify(account, trigger_id, req));
      return { status: 'success', trigger_id: g.trigger_id, ...MODE };
    });

    app.post('/api/v1/cancelgttorder', async (request): Promise<GttIdResponse> => {
      const req = kit.parse(CancelGttOrderRequest, request.body);
      const account = kit.account(req.apikey, 'order', '/api/v1/cancelgttorder');
      const g = accepted(book.cancel(account, req.trigger_id));
      return { status: 'success', trigger_id: g.trigger_id, ...MODE };
    });

    app.post('/api/v1/gttorderbook', async (request): Promise<GttOrderBookResponse> => {
      const req = kit.parse(GttOrderBookRequest, request.body);
      const account = kit.account(req.apikey, 'api', '/api/v1/gttorderbook');
      return { status: 'success', data: book.list(account, req.status).map(gttRecord), ...MODE };
    });
  };
}
