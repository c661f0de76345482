// GET /api/v1/ticker/{exchange}:{symbol} (spec §4.19): bars as JSON or AmiBroker-style text. The
// key comes from X-API-KEY or ?apikey; in txt mode errors are plain text with the same status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Exchange, TickerQuery, type TickerResponse } from '../../../contract/index.js';
import type { InstrumentMaster } from '../../instruments/instrument.js';
import { normaliseSymbol } from '../../instruments/symbols.js';
import type { BarInterval, Market } from '../../market/market.js';
import { barCalendar, type MarketHours } from '../../market/sessions.js';
import { isDailyOrLonger, tickerBarRange } from '../bar-range.js';
import { sendError, toHttpError } from '../errors.js';
import { isJsonObject } from '../kit.js';
import { HttpError, type RouteKit, type RoutePlugin } from '../route-kit.js';
import { barRow, formatTickerTxt } from '../ticker-format.js';

export const DEFAULT_TICKER = 'NSE:RELIANCE';

export interface TickerDeps {
  master: InstrumentMaster;
  market: Market;
  /** Today's hours for bars (default 'clock'); past days follow the exchange calendar. */
  hours?: MarketHours;
}

/** Longest symbol accepted, as in the POST bodies' `symbol` field. */
export const MAX_SYMBOL_LENGTH = 64;

/** Client text quoted in a message, cut short so a huge value is not echoed back. */
function quote(v: string): string {
  return v.length > 80 ? `${v.slice(0, 80)}…` : v;
}

/**
 * `EXCHANGE:SYMBOL` → parts; no exchange part → NSE; no value at all → NSE:RELIANCE. The symbol is
 * upper-cased, as on every endpoint (normaliseSymbol).
 */
export function splitTicker(value: string | undefined): { exchange: string; symbol: string } {
  const v = (value ?? '').trim();
  if (v === '') return splitTicker(DEFAULT_TICKER);
  const parts = v.split(':');
  if (parts.length > 2) throw new HttpError(400, `ticker must be EXCHANGE:SYMBOL, got ${quote(v)}`);
  const [first = '', second] = parts;
  const exchange = second === undefined ? 'NSE' : first.trim() || 'NSE';
  const symbol = normaliseSymbol(second === undefined ? first : second);
  if (symbol === '') throw new HttpError(400, `ticker ${quote(v)} has no symbol (EXCHANGE:SYMBOL)`);
  if (symbol.length > MAX_SYMBOL_LENGTH) {
    throw new HttpError(400, `symbol must be at most ${MAX_SYMBOL_LENGTH} characters`);
  }
  if (!Exchange.safeParse(exchange).success) {
    throw new HttpError(400, `exchange must be one of: ${Exchange.options.join(', ')}`);
  }
  return { exchange, symbol };
}

/** The requested format, read leniently so even a broken query gets its errors in the right form. */
function wantsTxt(query: unknown): boolean {
  return isJsonObject(query) && query['format'] === 'txt';
}

export function tickerRoutes(deps: TickerDeps): RoutePlugin {
  const { master, market } = deps;
  return (app, kit: RouteKit) => {
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const txt = wantsTxt(req.query);
      try {
        const q = kit.parse(TickerQuery, req.query);
        const params = req.params as { pair?: string } | undefined;
        const { exchange, symbol } = splitTicker(params?.pair);
        const header = req.headers['x-api-key'];
        const apikey = (Array.isArray(header) ? header[0] : header) ?? q.apikey;
        if (apikey === undefined || apikey.trim() === '') {
          throw new HttpError(400, 'apikey is required (header X-API-KEY or query parameter apikey)');
        }
        const interval: BarInterval = q.interval;
        const { fromSec, toSec } = tickerBarRange(
          interval,
          q.from,
          q.to,
          Math.floor(market.clock.now() / 1000),
        );
        // One window for both ticker paths (with and without EXCHANGE:SYMBOL).
        kit.account(apikey, 'ticker', '/api/v1/ticker');
        const inst = master.get(exchange, symbol);
        if (!inst) throw new HttpError(404, `Symbol ${symbol} not found in exchange ${exchange}`);

        const calendar = barCalendar(exchange, deps.hours ?? 'clock', Math.floor(market.clock.now() / 1000));
        const bars = market.bars(inst, interval, fromSec, toSec, { adjusted: q.adjusted, calendar });
        if (q.sort === 'desc') bars.reverse();
        if (q.format === 'txt') {
          return reply
            .type('text/plain; charset=utf-8')
            .send(formatTickerTxt(`${exchange}:${symbol}`, bars, interval === 'D'));
        }
        const res: TickerResponse = {
          status: 'success',
          data: bars.map((b) => barRow(b, isDailyOrLonger(interval))),
        };
        return reply.type('application/json; charset=utf-8').send(res);
      } catch (err) {
        const httpErr = toHttpError(err, 0);
        if (httpErr.status >= 500) console.error('paper gateway: ticker failed', err);
        return sendError(reply, httpErr, txt ? 'txt' : 'json');
      }
    };
    app.get('/api/v1/ticker', handler);
    app.get('/api/v1/ticker/:pair', handler);
  };
}
