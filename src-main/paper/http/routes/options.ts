// Option reads of the real gateway (gateway-behaviour §3.10, §10): optionsymbol, optionchain,
// optiongreeks and syntheticfuture, priced by the simulator and resolved per §3.10. Refusals
// (unknown offset, a passed expiry, a strike off the listed ladder) answer as upstream: 400 for a
// bad request, 404 naming the option symbol that does not exist.
import {
  OptionChainRequest,
  MultiOptionGreeksRequest,
  OptionGreeksRequest,
  OptionSymbolRequest,
  SyntheticFutureRequest,
  type OptionChainLeg,
  type OptionChainResponse,
  type MultiOptionGreeksResponse,
  type OptionGreeksResponse,
  type OptionSymbolResponse,
  type SyntheticFutureResponse,
} from '../../../contract/index.js';
import { MONTHS } from '../../instruments/calendar.js';
import type { Instrument, InstrumentMaster } from '../../instruments/instrument.js';
import { normaliseSymbol, optionSymbol } from '../../instruments/symbols.js';
import { istEpochMs } from '../../instruments/exchange-calendar.js';
import type { Market } from '../../market/market.js';
import { RISK_FREE_RATE } from '../../market/option-model.js';
import { optionGreeks } from '../../options/greeks.js';
import { createSpotFinder, DEFAULT_EXPIRY_MIN, yearsToExpiry } from '../../options/pricing.js';
import {
  atmStrike,
  resolveChain,
  resolveInChain,
  resolveOption,
  strikeLabel,
  type OptionType,
  type Resolved,
  type ResolveContext,
} from '../../options/resolve.js';
import { istDate } from '../ist.js';
import { HttpError, type RoutePlugin } from '../route-kit.js';

export interface OptionRoutesDeps {
  master: InstrumentMaster;
  market: Market;
}

/** The value, or the refusal as the HttpError the route answers with. */
export function orRefuse<T>(r: Resolved<T>): T {
  if (!r.ok) throw new HttpError(r.status, r.message);
  return r.value;
}

export function resolveContext(deps: OptionRoutesDeps): ResolveContext {
  return {
    master: deps.master,
    market: deps.market,
    today: istDate(Math.floor(deps.market.clock.now() / 1000)),
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** 25-Aug-2026, as upstream's optiongreeks prints the expiry. */
function greeksExpiryDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  const mon = MONTHS[Number(m) - 1] ?? '';
  return `${d}-${mon.charAt(0)}${mon.slice(1).toLowerCase()}-${y}`;
}

export function optionRoutes(deps: OptionRoutesDeps): RoutePlugin {
  const { master, market } = deps;
  const spots = createSpotFinder(master, market);

  const greeksOf = (inst: Instrument, ltp: number, r: number) => {
    const tau = yearsToExpiry(inst.expiryDate ?? '', market.clock.now(), DEFAULT_EXPIRY_MIN);
    return optionGreeks(inst.kind === 'CE', ltp, spots.spot(inst), inst.strike, tau, r);
  };

  const chainLeg = (inst: Instrument, label: string, withGreeks: boolean): OptionChainLeg => {
    const b = market.book(inst);
    const leg: OptionChainLeg = {
      symbol: inst.symbol,
      label,
      ltp: b.ltp,
      bid: b.bid,
      ask: b.ask,
      bid_qty: b.bids[0]?.quantity ?? 0,
      ask_qty: b.asks[0]?.quantity ?? 0,
      open: b.open,
      high: b.high,
      low: b.low,
      prev_close: b.prev_close,
      volume: Math.round(b.volume),
      oi: b.oi,
      lotsize: inst.lotsize,
      tick_size: inst.tickSize,
    };
    if (!withGreeks) return leg;
    const g = greeksOf(inst, b.ltp, RISK_FREE_RATE);
    return {
      ...leg,
      implied_volatility: g.impliedVolatility,
      delta: g.delta,
      gamma: g.gamma,
      theta: g.theta,
      vega: g.vega,
    };
  };

  return (app, kit) => {
    app.post('/api/v1/optionsymbol', async (req): Promise<OptionSymbolResponse> => {
      const body = kit.parse(OptionSymbolRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/optionsymbol');
      const r = orRefuse(resolveOption(resolveContext(deps), body));
      return {
        status: 'success',
        symbol: r.option.symbol,
        exchange: r.option.exchange,
        lotsize: r.option.lotsize,
        tick_size: r.option.tickSize,
        freeze_qty: r.option.freezeQty,
        underlying_ltp: r.underlyingLtp,
      };
    });

    app.post('/api/v1/optionchain', async (req): Promise<OptionChainResponse> => {
      const body = kit.parse(OptionChainRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/optionchain');
      const chain = orRefuse(resolveChain(resolveContext(deps), body));
      const { strikes, atm, ref, optExchange } = chain;
      // With strike_int the ATM may be unlisted: the window centres on the listed strike nearest it.
      const atmIndex = strikes.indexOf(atmStrike(strikes, atm));
      // Without strike_count every listed strike is returned, as upstream.
      const count = body.strike_count ?? strikes.length;
      const lo = Math.max(0, atmIndex - count);
      const hi = Math.min(strikes.length - 1, atmIndex + count);
      const withGreeks = body.with_greeks ?? false;
      const rows: OptionChainResponse['chain'] = [];
      for (let i = lo; i <= hi; i++) {
        const strike = strikes[i] ?? 0;
        const side = (type: OptionType) => {
          const inst = master.get(optExchange, optionSymbol(ref.base, ref.expiryIso, strike, type));
          return inst ? chainLeg(inst, strikeLabel(i, atmIndex, type), withGreeks) : null;
        };
        rows.push({ strike, ce: side('CE'), pe: side('PE') });
      }
      const atmCe = rows.find((r) => r.strike === atm)?.ce;
      const atmPe = rows.find((r) => r.strike === atm)?.pe;
      const und = market.quote(chain.underlying);
      const res: OptionChainResponse = {
        status: 'success',
        underlying: ref.base,
        underlying_ltp: chain.underlyingLtp,
        underlying_prev_close: und.prev_close,
        expiry_date: ref.expiryCode,
        atm_strike: atm,
        expiry_ts: Math.floor(istEpochMs(ref.expiryIso, DEFAULT_EXPIRY_MIN) / 1000),
        server_ts: Math.floor(market.clock.now() / 1000),
        quotes_included: true,
        greeks_included: withGreeks,
        chain: rows,
      };
      // Put-call parity at the ATM strike: what the chain implies for the forward.
      if (atmCe && atmPe) res.forward_price = round2(atm + atmCe.ltp - atmPe.ltp);
      return res;
    });

    app.post('/api/v1/syntheticfuture', async (req): Promise<SyntheticFutureResponse> => {
      const body = kit.parse(SyntheticFutureRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/syntheticfuture');
      const ctx = resolveContext(deps);
      const chain = orRefuse(resolveChain(ctx, body));
      const ce = orRefuse(resolveInChain(ctx, chain, 'ATM', 'CE', body.strike_int));
      const pe = orRefuse(resolveInChain(ctx, chain, 'ATM', 'PE', body.strike_int));
      return {
        status: 'success',
        underlying: chain.ref.base,
        underlying_ltp: chain.underlyingLtp,
        expiry: chain.ref.expiryCode,
        atm_strike: chain.atm,
        synthetic_future_price: round2(chain.atm + market.lastPrice(ce.option) - market.lastPrice(pe.option)),
      };
    });

    /** One option's greeks; a refusal is the HttpError optiongreeks answers with. */
    const greeksAnswer = (body: Omit<OptionGreeksRequest, 'apikey'>): OptionGreeksResponse => {
      const symbol = normaliseSymbol(body.symbol);
      const inst = master.get(body.exchange, symbol);
      if (!inst) {
        throw new HttpError(404, `Symbol ${symbol} not found in exchange ${body.exchange}`);
      }
      if ((inst.kind !== 'CE' && inst.kind !== 'PE') || !inst.expiryDate) {
        throw new HttpError(400, `${symbol} is not an option: greeks need a CE or PE symbol`);
      }
      const expiryMin = body.expiry_time === undefined ? DEFAULT_EXPIRY_MIN : expiryMinutes(body.expiry_time);
      const nowMs = market.clock.now();
      const tau = yearsToExpiry(inst.expiryDate, nowMs, expiryMin);
      if (tau <= 0) throw new HttpError(400, `Option ${symbol} has expired`);
      // interest_rate is a percentage, as upstream takes it; the default is the simulator's own rate.
      const ratePct = body.interest_rate ?? RISK_FREE_RATE * 100;
      const spot = body.forward_price ?? spots.spot(inst);
      const price = market.lastPrice(inst);
      const g = optionGreeks(inst.kind === 'CE', price, spot, inst.strike, tau, ratePct / 100);
      return {
        status: 'success',
        symbol,
        exchange: inst.exchange,
        underlying: inst.name,
        strike: inst.strike,
        option_type: inst.kind,
        expiry_date: greeksExpiryDate(inst.expiryDate),
        days_to_expiry: Math.round(tau * 365 * 10_000) / 10_000,
        spot_price: round2(spot),
        option_price: price,
        interest_rate: ratePct,
        implied_volatility: g.impliedVolatility,
        greeks: { delta: g.delta, gamma: g.gamma, theta: g.theta, vega: g.vega, rho: g.rho },
      };
    };

    app.post('/api/v1/optiongreeks', async (req): Promise<OptionGreeksResponse> => {
      const body = kit.parse(OptionGreeksRequest, req.body);
      kit.account(body.apikey, 'api', '/api/v1/optiongreeks');
      return greeksAnswer(body);
    });

    // Each symbol as optiongreeks answers it, or its refusal in words; HTTP 200 whatever failed, with
    // status `partial` when some did and `error` (and their messages) when all did, as upstream.
    app.post('/api/v1/multioptiongreeks', async (req) => {
      const { apikey, symbols, ...common } = kit.parse(MultiOptionGreeksRequest, req.body);
      kit.account(apikey, 'api', '/api/v1/multioptiongreeks');
      const data = symbols.map((one) => {
        try {
          return greeksAnswer({ ...one, ...common });
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          const symbol = normaliseSymbol(one.symbol);
          return { status: 'error' as const, symbol, exchange: one.exchange, message: err.message };
        }
      });
      const failed = data.filter((d) => d.status === 'error');
      const summary = { total: data.length, success: data.length - failed.length, failed: failed.length };
      if (failed.length === data.length) {
        const message = failed.map((f) => `${f.symbol}: ${f.message}`).join('; ');
        return { status: 'error', message, data, summary };
      }
      const res: MultiOptionGreeksResponse = {
        status: failed.length === 0 ? 'success' : 'partial',
        data,
        summary,
      };
      return res;
    });
  };
}

/** 'HH:MM' → minutes after midnight; a malformed time is a 400 naming the field. */
function expiryMinutes(hhmm: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  const h = Number(m?.[1]);
  const min = Number(m?.[2]);
  if (!m || h > 23 || min > 59) throw new HttpError(400, 'expiry_time must be HH:MM (e.g. 15:30)');
  return h * 60 + min;
}
