// Reference reads without an account: the instrument master download (GET /instruments, JSON or
// CSV, gateway-behaviour §8.6) and the market calendar (/market/holidays, /market/timings, §10)
// from the exchange calendar kept as data (instruments/data/holidays.ts).
import {
  InstrumentsQuery,
  MarketHolidaysRequest,
  MarketTimingsRequest,
  type MarketHolidaysResponse,
  type MarketTimingsResponse,
} from '../../../contract/index.js';
import { holidaysOf, istEpochMs, regularSession, timingsOn } from '../../instruments/exchange-calendar.js';
import type { InstrumentMaster } from '../../instruments/instrument.js';
import { istDate } from '../ist.js';
import { sendError } from '../errors.js';
import { HttpError, type RoutePlugin } from '../route-kit.js';
import { symbolRecord } from './market-data.js';
import type { Clock } from '../../../contract/clock.js';

export interface ReferenceDeps {
  master: InstrumentMaster;
  clock: Pick<Clock, 'now'>;
}

const CSV_COLUMNS = [
  'symbol',
  'brsymbol',
  'name',
  'exchange',
  'brexchange',
  'token',
  'expiry',
  'strike',
  'lotsize',
  'instrumenttype',
  'tick_size',
] as const;

/** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvField(v: unknown): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function headerOf(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function referenceRoutes(deps: ReferenceDeps): RoutePlugin {
  const { master } = deps;
  return (app, kit) => {
    app.get('/api/v1/instruments', async (request, reply) => {
      const q = kit.parse(InstrumentsQuery, request.query);
      // The key in the query, as upstream, or in X-API-KEY (our client's way: never in a URL).
      const apikey = q.apikey ?? headerOf(request.headers['x-api-key']);
      if (apikey === undefined || apikey.trim() === '') {
        return sendError(
          reply,
          new HttpError(401, 'API key is required (apikey query parameter or X-API-KEY header)'),
        );
      }
      kit.account(apikey, 'api', '/api/v1/instruments');
      const rows =
        q.exchange === undefined ? master.all : master.all.filter((r) => r.exchange === q.exchange);
      if (q.format === 'csv') {
        const lines = [CSV_COLUMNS.join(',')];
        for (const r of rows) {
          const rec = symbolRecord(r);
          lines.push(CSV_COLUMNS.map((c) => csvField(rec[c])).join(','));
        }
        const name = `instruments_${q.exchange ?? 'all'}.csv`;
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${name}"`)
          .send(`${lines.join('\n')}\n`);
      }
      return { status: 'success', message: `Found ${rows.length} instruments`, data: rows.map(symbolRecord) };
    });

    app.post('/api/v1/market/holidays', async (request): Promise<MarketHolidaysResponse> => {
      const req = kit.parse(MarketHolidaysRequest, request.body);
      kit.account(req.apikey, 'api', '/api/v1/market/holidays');
      const year = req.year ?? Number(istDate(Math.floor(deps.clock.now() / 1000)).slice(0, 4));
      const list = holidaysOf(year);
      const data = (list ?? []).map((h) => ({
        date: h.date,
        description: h.description,
        holiday_type: h.type,
        closed_exchanges: [...h.closed],
        open_exchanges: h.open.map((o) => {
          const [sh, sm] = o.start.split(':');
          const end = o.end?.split(':');
          return {
            exchange: o.exchange,
            start_time: istEpochMs(h.date, Number(sh) * 60 + Number(sm)),
            end_time: istEpochMs(
              h.date,
              end ? Number(end[0]) * 60 + Number(end[1]) : regularSession(o.exchange, h.date).endMin,
            ),
          };
        }),
      }));
      const res: MarketHolidaysResponse = { status: 'success', year, timezone: 'Asia/Kolkata', data };
      // Not a silent empty list: say that only weekends are known for a year without a list.
      if (!list)
        res['message'] =
          `No holiday list for ${year} in the paper gateway's calendar: only weekends are closed`;
      return res;
    });

    app.post('/api/v1/market/timings', async (request): Promise<MarketTimingsResponse> => {
      const req = kit.parse(MarketTimingsRequest, request.body);
      kit.account(req.apikey, 'api', '/api/v1/market/timings');
      return { status: 'success', data: timingsOn(req.date).map((t) => ({ ...t })) };
    });
  };
}
