// Market-data and reference routes: depth, quotes, multiquotes, symbol, search, expiry, history,
// intervals, ping and analyzer (spec §4.16-§4.18, gateway-behaviour §8.3-§8.5, §9, §10).
import type { z } from 'zod';
import {
  ApiKeyRequest,
  DepthRequest,
  ExpiryRequest,
  HistoryRequest,
  MultiQuotesRequest,
  QuotesRequest,
  SearchRequest,
  SymbolRequest,
  type AnalyzerResponse,
  type DepthResponse,
  type ExpiryResponse,
  type HistoryResponse,
  type IntervalsResponse,
  type MultiQuotesResponse,
  type PingResponse,
  type QuoteData,
  type QuotesResponse,
  type SearchResponse,
  type SymbolRecord,
  type SymbolResponse,
} from '../../../contract/index.js';
import type { Instrument, InstrumentMaster } from '../../instruments/instrument.js';
import { normaliseSymbol } from '../../instruments/symbols.js';
import { BAR_INTERVALS, type BarInterval, type Market } from '../../market/market.js';
import { barCalendar, type MarketHours } from '../../market/sessions.js';
import { historyBarRange, isDailyOrLonger } from '../bar-range.js';
import { HttpError, type RoutePlugin } from '../route-kit.js';
import { barRow } from '../ticker-format.js';

/** Largest search answer (upstream `limit=500`). */
export const SEARCH_LIMIT = 500;

export interface AnalyzerStatus {
  /** Changes on every reset of the paper books (the engine bumps it). */
  mode_version: number;
  total_logs: number;
}

export interface MarketDataDeps {
  master: InstrumentMaster;
  market: Market;
  /** Rows matching a search query, best first, at most `limit`. */
  search(query: string, exchange: string | undefined, limit: number): readonly Instrument[];
  /** Expiry dates (DD-MMM-YY, earliest first, none before today) of an underlying's contracts. */
  expiries(symbol: string, exchange: string, instrumenttype: 'futures' | 'options'): readonly string[];
  /** Analyzer status; omit to leave POST /api/v1/analyzer to another module. */
  analyzer?: () => AnalyzerStatus;
  /** `broker` in the ping answer. */
  broker?: string;
  /** Today's hours for history bars (default 'clock'); past days follow the exchange calendar. */
  hours?: MarketHours;
}

type Out<T extends z.ZodType> = z.output<T>;

function notFoundForQuotes(symbol: string, exchange: string): string {
  return `Symbol '${symbol}' not found for exchange '${exchange}'. Please verify the symbol name and ensure master contracts are downloaded.`;
}

export function symbolRecord(inst: Instrument): Out<typeof SymbolRecord> {
  return {
    symbol: inst.symbol,
    brsymbol: inst.brsymbol,
    name: inst.name,
    exchange: inst.exchange,
    brexchange: inst.brexchange,
    token: inst.token,
    expiry: inst.expiry,
    strike: inst.strike,
    lotsize: inst.lotsize,
    instrumenttype: inst.instrumenttype,
    tick_size: inst.tickSize,
    freeze_qty: inst.freezeQty,
  };
}

export function quoteData(market: Market, inst: Instrument): QuoteData {
  // The book is the quote with its levels: one read gives both.
  const q = market.book(inst);
  return {
    ask: q.ask,
    // The sizes at the best prices, as the live sandbox adds them.
    ask_qty: q.asks[0]?.quantity ?? 0,
    bid: q.bid,
    bid_qty: q.bids[0]?.quantity ?? 0,
    high: q.high,
    low: q.low,
    ltp: q.ltp,
    oi: q.oi,
    open: q.open,
    prev_close: q.prev_close,
    volume: Math.round(q.volume),
  };
}

/** The simulator's intervals grouped as upstream's /intervals answers them. */
export function intervalsData(): IntervalsResponse['data'] {
  const pick = (re: RegExp) => BAR_INTERVALS.filter((i) => re.test(i));
  return {
    seconds: pick(/^\d+s$/),
    minutes: pick(/^\d+m$/),
    hours: pick(/^\d+h$/),
    days: pick(/^D$/),
    weeks: pick(/^W$/),
    months: pick(/^M$/),
  };
}

export function marketDataRoutes(deps: MarketDataDeps): RoutePlugin {
  const { master, market } = deps;
  // Symbols are upper-cased on every endpoint, as placeorder does (normaliseSymbol).
  const instrumentOr400 = (exchange: string, requested: string): Instrument => {
    const symbol = normaliseSymbol(requested);
    const inst = master.get(exchange, symbol);
    if (!inst) throw new HttpError(400, notFoundForQuotes(symbol, exchange));
    return inst;
  };

  return (app, kit) => {
    app.post('/api/v1/ping', async (req) => {
      const body = kit.parse(ApiKeyRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/ping');
      const res: PingResponse = {
        status: 'success',
        data: { broker: deps.broker ?? 'paper', message: 'pong' },
      };
      return res;
    });

    app.post('/api/v1/depth', async (req) => {
      const body = kit.parse(DepthRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/depth');
      const b = market.book(instrumentOr400(body.exchange, body.symbol));
      const level = (l: { price: number; quantity: number }) => ({ price: l.price, quantity: l.quantity });
      const res: DepthResponse = {
        status: 'success',
        data: {
          open: b.open,
          high: b.high,
          low: b.low,
          ltp: b.ltp,
          ltq: b.ltq,
          prev_close: b.prev_close,
          volume: Math.round(b.volume),
          oi: b.oi,
          totalbuyqty: b.totalbuyqty,
          totalsellqty: b.totalsellqty,
          asks: b.asks.slice(0, 5).map(level),
          bids: b.bids.slice(0, 5).map(level),
        },
      };
      return res;
    });

    app.post('/api/v1/quotes', async (req) => {
      const body = kit.parse(QuotesRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/quotes');
      const res: QuotesResponse = {
        status: 'success',
        data: quoteData(market, instrumentOr400(body.exchange, body.symbol)),
      };
      return res;
    });

    app.post('/api/v1/multiquotes', async (req) => {
      const body = kit.parse(MultiQuotesRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/multiquotes');
      // Upstream lists the invalid symbols first, then the quotes.
      const invalid: { symbol: string; exchange: string; error: string }[] = [];
      const valid: { symbol: string; exchange: string; data: QuoteData }[] = [];
      for (const { symbol: requested, exchange } of body.symbols) {
        const symbol = normaliseSymbol(requested);
        const inst = master.get(exchange, symbol);
        if (inst) valid.push({ symbol, exchange, data: quoteData(market, inst) });
        else invalid.push({ symbol, exchange, error: notFoundForQuotes(symbol, exchange) });
      }
      if (valid.length === 0) {
        throw new HttpError(400, invalid[0]?.error ?? 'No valid symbols', { invalid_symbols: invalid });
      }
      const res: MultiQuotesResponse = { status: 'success', results: [...invalid, ...valid] };
      return res;
    });

    app.post('/api/v1/symbol', async (req) => {
      const body = kit.parse(SymbolRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/symbol');
      const symbol = normaliseSymbol(body.symbol);
      const inst = master.get(body.exchange, symbol);
      if (!inst) throw new HttpError(404, `Symbol ${symbol} not found in exchange ${body.exchange}`);
      const res: SymbolResponse = { status: 'success', data: { id: inst.id, ...symbolRecord(inst) } };
      return res;
    });

    app.post('/api/v1/search', async (req) => {
      const body = kit.parse(SearchRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/search');
      const rows = deps.search(body.query, body.exchange, SEARCH_LIMIT).map(symbolRecord);
      const res: SearchResponse = {
        status: 'success',
        message: rows.length > 0 ? `Found ${rows.length} matching symbols` : 'No matching symbols found',
        data: rows,
      };
      return res;
    });

    app.post('/api/v1/expiry', async (req) => {
      const body = kit.parse(ExpiryRequest, req.body);
      kit.account(body.apikey, 'expiry', '/api/v1/expiry');
      const type = body.instrumenttype as 'futures' | 'options';
      const dates = [...deps.expiries(body.symbol, body.exchange, type)];
      // No match is 200 `success` with [] and the §7.3 sentence, as upstream answers it (§8.4).
      const res: ExpiryResponse = {
        status: 'success',
        message:
          dates.length > 0
            ? `Found ${dates.length} expiry dates for ${body.symbol} ${type} in ${body.exchange}`
            : `No expiry dates found for ${body.symbol} ${type} in ${body.exchange}`,
        data: dates,
      };
      return res;
    });

    app.post('/api/v1/intervals', async (req) => {
      const body = kit.parse(ApiKeyRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/intervals');
      const res: IntervalsResponse = { status: 'success', data: intervalsData() };
      return res;
    });

    app.post('/api/v1/history', async (req) => {
      const body = kit.parse(HistoryRequest, req.body);
      const interval: BarInterval = body.interval;
      // The range is part of validation, so it is checked before the key.
      const { fromSec, toSec } = historyBarRange(
        interval,
        body.start_date,
        body.end_date,
        Math.floor(market.clock.now() / 1000),
      );
      kit.account(body.apikey, 'api', '/api/v1/history');
      const inst = instrumentOr400(body.exchange, body.symbol);
      // `oi` is always present (upstream adds the column; 0 for cash instruments).
      const oi = inst.kind === 'FUT' || inst.kind === 'CE' || inst.kind === 'PE' ? market.quote(inst).oi : 0;
      const res: HistoryResponse = {
        status: 'success',
        data: market
          .bars(inst, interval, fromSec, toSec, {
            calendar: barCalendar(
              inst.exchange,
              deps.hours ?? 'clock',
              Math.floor(market.clock.now() / 1000),
            ),
          })
          .map((b) => ({ ...barRow(b, isDailyOrLonger(interval)), oi })),
      };
      return res;
    });

    const analyzer = deps.analyzer;
    if (analyzer) {
      app.post('/api/v1/analyzer', async (req) => {
        const body = kit.parse(ApiKeyRequest, req.body);
        kit.account(body.apikey, 'api', '/api/v1/analyzer');
        const s = analyzer();
        const res: AnalyzerResponse = {
          status: 'success',
          data: {
            analyze_mode: true,
            mode: 'analyze',
            total_logs: s.total_logs,
            balance_type: 'sandbox',
            mode_version: s.mode_version,
          },
        };
        return res;
      });
    }
  };
}
