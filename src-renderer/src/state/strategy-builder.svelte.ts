// The options strategy builder, desk-wide (App provides it; the chain pane and the Strategy pane share
// it): the legs and their live premiums, IV and greeks, the chain's strikes and expiries as the chain
// pane last pushed them, templates placed around the money, the what-ifs (spot, IV shift, "today"),
// the payoff curves and stats worked out again whenever an input changes, the whole basket's margin
// (`orders.margin`, after a pause), and the send: `strategies.send`, its per-leg answer, and on a
// partial send the trader's explicit "send remaining" or "unwind sent legs", each confirmed first.
// Nothing is ever sent again by itself. `showSaved` follows a saved strategy read-only.
import type {
  BridgeApi,
  Exchange,
  IpcError,
  LegGreeks,
  MarginEstimate,
  SessionMode,
  StrategySendInput,
  StrategyView,
} from '@contract';
import {
  STRATEGY_TEMPLATES,
  bsGreeks,
  expiryMs,
  impliedVol,
  payoffCurves,
  placeTemplate,
  strategyStats,
  tradingYears,
} from '@shared/options/index.js';
import type { NetGreeks, PayoffCurves, PayoffLeg, StrategyStats } from '@shared/options/types.js';
import { SvelteMap } from 'svelte/reactivity';
import { untrack } from 'svelte';
import { formatMoney } from '@shared/format.js';
import { parseSymbol } from '../lib/instrument';
import {
  chainKey,
  chainStrikes,
  quotesFromMulti,
  quoteFromEvent,
  type ChainQuote,
  type ChainStrike,
} from '../lib/option-chain';
import {
  addPick,
  buysFirst,
  expiryCodeOf,
  expiryWords,
  legLine,
  livePremium,
  marginAskOfLegs,
  payoffLegsOf,
  sendLegsOf,
  savedLegs,
  signedUnits,
  stepStrike,
  type BuilderLeg,
  type ChainPick,
  type StrategyPriceType,
  type StrategyProduct,
} from '../lib/strategy-legs';
import { roundSpotGrid } from '../lib/strategy-grid';
import type { ConfirmState } from './confirm.svelte';
import { MarginAsker } from './margin-ask.svelte';
import { WatchSlot } from './watch-slot.svelte';

/** The risk-free rate the payoff and greeks use. */
export const STRATEGY_RATE = 0.07;
/** The IV shift's bounds, in IV points. */
export const IV_SHIFT_MAX = 10;
/** The pause after the last leg change before the legs' greeks are read. */
const GREEKS_DELAY_MS = 250;
const DAY_MS = 86_400_000;

/** What the chain pane pushes when it loads or its strikes, money or spot change. */
export interface ChainSnapshot {
  underlying: string;
  exchange: string;
  /** Expiries as the picker lists them (`24-NOV-26`), nearest first. */
  expiries: readonly string[];
  /** The expiry shown (listed form). */
  expiry: string;
  strikes: readonly ChainStrike[];
  atm: number | undefined;
  spot: number | undefined;
  spotRef: { symbol: string; exchange: string } | undefined;
  /** The chain's live quotes (read when a cell is added). */
  quotes?: ReadonlyMap<string, ChainQuote> | undefined;
}

/** A leg's greeks as the table shows them: the position's (signed units), at the what-if spot. */
export interface LegFigures {
  iv: number | null;
  greeks: NetGreeks | null;
}

export interface BuilderDeps {
  confirm: ConfirmState;
  /** Paper, sandbox or live, as the status bar shows it. */
  mode?: () => SessionMode | undefined;
  now?: () => number;
}

const MODE_LINE: Record<SessionMode, string> = {
  paper: 'PAPER: simulated orders on the paper gateway.',
  sandbox: 'SANDBOX: simulated orders at the gateway.',
  live: 'LIVE: real orders with real money.',
};

/** Rupees typed for a stop or target: undefined when empty, NaN when not a positive amount. */
function rupeesOf(text: string): number | undefined {
  const t = text.replace(/[₹,\s]/g, '');
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n > 0 && /^\d+(\.\d{1,2})?$/.test(t) ? n : NaN;
}

export class StrategyBuilderState {
  /** The legs being built (or, following, the saved strategy's open legs). */
  legs = $state.raw<BuilderLeg[]>([]);
  /** The underlying the legs share ('' with none). */
  underlying = $state('');
  exchange = $state('NFO');
  spotRef = $state.raw<{ symbol: string; exchange: string } | undefined>();
  /** Expiry codes (`24NOV26`) the chain lists, nearest first, and the one it shows. */
  expiries = $state.raw<string[]>([]);
  expiry = $state('');
  atm = $state<number | undefined>();
  /** Strikes per `UNDERLYING:CODE`, as read. */
  readonly strikesBy = new SvelteMap<string, ChainStrike[]>();
  /** The chain's Build toggle: a price click adds a leg instead of loading the ticket. */
  building = $state(false);
  /** What the last add, edit or template did, or why it did nothing. */
  notice = $state<string | undefined>();

  /** What-ifs: the spot (undefined: the market's), IV points added, "today" in days from now. */
  whatIfSpot = $state<number | undefined>();
  ivShift = $state(0);
  daysAhead = $state(0);

  name = $state('');
  product = $state<StrategyProduct>('NRML');
  pricetype = $state<StrategyPriceType>('MARKET');
  stopText = $state('');
  targetText = $state('');
  sending = $state(false);
  /** Why the last send, resume or unwind was refused or got no answer. */
  sendError = $state<string | undefined>();
  /** The answer of the last send (kept current from `strategies.list`). */
  result = $state.raw<StrategyView | undefined>();
  /** A saved strategy shown read-only. */
  following = $state.raw<StrategyView | undefined>();
  /** Bumped to ask the focus area to show the Strategy tab. */
  revealCount = $state(0);

  /** Latest quotes of the legs and the spot, by `EXCHANGE:SYMBOL`. */
  readonly quotes = new SvelteMap<string, ChainQuote>();
  readonly greeksBy = new SvelteMap<string, LegGreeks>();
  greeksError = $state<string | undefined>();
  clock = $state(Date.now());

  readonly #bridge: BridgeApi;
  readonly #deps: BuilderDeps;
  readonly #asker: MarginAsker;
  readonly slot: WatchSlot;
  #chainQuotes = $state.raw<ReadonlyMap<string, ChainQuote> | undefined>();
  #chainSpot = $state<number | undefined>();
  /** The chain pane's last view, whichever underlying it shows. */
  #chain: ChainSnapshot | undefined;
  #nextId = 1;
  #draft: BuilderLeg[] | undefined;
  #greeksSeq = 0;

  constructor(bridge: BridgeApi, deps: BuilderDeps) {
    this.#bridge = bridge;
    this.#deps = deps;
    this.#asker = new MarginAsker(bridge);
    this.slot = new WatchSlot(bridge);
    this.clock = (deps.now ?? Date.now)();
  }

  /** Following a saved strategy: nothing can be edited or sent. */
  readonly readOnly = $derived(this.following !== undefined);

  /**
   * The legs with their live premium (the saved average when following) and IV. The IV is implied
   * from the contract's market price now (mid, else LTP) with the payoff's own time and rate, so the
   * today curve passes through the market at the spot; the chain's IV where none can be implied.
   */
  readonly shownLegs: BuilderLeg[] = $derived.by(() =>
    this.legs.map((l) => {
      const key = chainKey(l);
      const market = livePremium(this.quotes.get(key) ?? this.#chainQuotes?.get(key));
      const live = this.following ? null : market;
      const g = this.greeksBy.get(key);
      const chainIv = g?.iv !== null && g?.iv !== undefined && g.iv > 0 ? g.iv / 100 : l.iv;
      const spot = this.spot;
      const implied =
        market !== null && spot !== undefined
          ? impliedVol(
              l.kind,
              market,
              spot,
              l.strike,
              tradingYears(this.clock, expiryMs(l.expiry)),
              STRATEGY_RATE,
            )
          : null;
      return { ...l, premium: live ?? l.premium, iv: implied ?? chainIv };
    }),
  );

  readonly spot: number | undefined = $derived.by(() => {
    const ref = this.spotRef;
    const q = ref ? this.quotes.get(chainKey(ref)) : undefined;
    return q && q.ltp > 0 ? q.ltp : this.#chainSpot;
  });
  /** The spot the payoff centres on: the market's, else the at-the-money strike. */
  readonly refSpot = $derived(this.spot ?? this.atm);
  /** The what-if spot, else the market's. */
  readonly atSpot = $derived(this.whatIfSpot ?? this.refSpot);

  readonly payoffLegs: PayoffLeg[] = $derived(payoffLegsOf(this.shownLegs, expiryMs));
  /** Legs left out of the payoff for want of a premium. */
  readonly unpriced = $derived(this.shownLegs.filter((l) => l.premium === null).length);
  readonly firstExpiryMs = $derived(
    this.payoffLegs.length ? Math.min(...this.payoffLegs.map((l) => l.expiryMs)) : undefined,
  );
  /** Whole days from now to the first expiry (the "today" control's end). */
  readonly daysToExpiry = $derived(
    this.firstExpiryMs === undefined
      ? 0
      : Math.max(0, Math.floor((this.firstExpiryMs - this.clock) / DAY_MS)),
  );
  /** "Today" as the today curve sees it: now plus the days ahead, never past the first expiry. */
  readonly nowMs = $derived.by(() => {
    const t = this.clock + Math.min(this.daysAhead, this.daysToExpiry) * DAY_MS;
    return this.firstExpiryMs === undefined ? t : Math.min(t, this.firstExpiryMs - 60_000);
  });

  readonly #math = $derived.by(
    (): { curves: PayoffCurves; stats: StrategyStats } | { error: string } | undefined => {
      const legs = this.payoffLegs;
      const spot = this.refSpot;
      if (legs.length === 0 || spot === undefined) return undefined;
      try {
        const spots = roundSpotGrid(spot, legs, 400);
        const o = { spots, nowMs: this.nowMs, ivShift: this.ivShift / 100, rate: STRATEGY_RATE };
        const curves = payoffCurves(legs, o);
        const stats = strategyStats(legs, curves, {
          spot: this.atSpot ?? spot,
          nowMs: this.nowMs,
          rate: STRATEGY_RATE,
          ivShift: this.ivShift / 100,
        });
        return { curves, stats };
      } catch (e) {
        return { error: e instanceof Error ? e.message : String(e) };
      }
    },
  );
  readonly curves = $derived(this.#math && 'curves' in this.#math ? this.#math.curves : undefined);
  readonly stats = $derived(this.#math && 'stats' in this.#math ? this.#math.stats : undefined);
  readonly mathError = $derived(this.#math && 'error' in this.#math ? this.#math.error : undefined);

  /** Each shown leg's IV and position greeks at the what-if spot and "today". */
  readonly figures: LegFigures[] = $derived.by(() =>
    this.shownLegs.map((l) => {
      const spot = this.atSpot;
      if (l.iv === null || spot === undefined) return { iv: l.iv, greeks: null };
      const years = tradingYears(this.nowMs, expiryMs(l.expiry));
      const iv = Math.max(0.001, l.iv + this.ivShift / 100);
      const g = bsGreeks(l.kind, spot, l.strike, years, STRATEGY_RATE, iv);
      const u = signedUnits(l);
      return {
        iv: l.iv,
        greeks: { delta: g.delta * u, gamma: g.gamma * u, theta: g.theta * u, vega: g.vega * u },
      };
    }),
  );

  /** P&L at the what-if spot, on the today and expiry curves (linear between grid points). */
  readonly pnlAtSpot = $derived.by(() => {
    const c = this.curves;
    const s = this.atSpot;
    if (!c || s === undefined || c.spots.length < 2) return undefined;
    const xs = c.spots;
    let i = 1;
    while (i < xs.length - 1 && xs[i]! < s) i++;
    const x0 = xs[i - 1]!;
    const x1 = xs[i]!;
    const f = x1 === x0 ? 0 : Math.min(1, Math.max(0, (s - x0) / (x1 - x0)));
    const at = (ys: Float64Array) => ys[i - 1]! + (ys[i]! - ys[i - 1]!) * f;
    return { today: at(c.today), expiry: at(c.expiry) };
  });

  /** Rupees received (+) or paid (−) for the whole basket at the shown premiums. */
  readonly netPremium = $derived(
    this.shownLegs.reduce((n, l) => n + (l.premium === null ? 0 : -signedUnits(l) * l.premium), 0),
  );

  // ---- margin ----
  readonly marginAsk = $derived(this.readOnly ? undefined : marginAskOfLegs(this.legs, this.product));
  readonly margin = $derived.by(
    ():
      | { kind: 'none' }
      | { kind: 'asking' }
      | { kind: 'answer'; value: MarginEstimate }
      | { kind: 'problem'; why: string } => {
      const ask = this.marginAsk;
      if (!ask) return { kind: 'none' };
      const s = this.#asker.stateOf(ask);
      if (s.answer) return { kind: 'answer', value: s.answer };
      if (s.problem) return { kind: 'problem', why: s.problem };
      return { kind: 'asking' };
    },
  );

  // ---- the chain ----

  /** The chain pane's view, pushed as it loads and changes. Strikes are kept per expiry. */
  takeChain(c: ChainSnapshot): void {
    const und = c.underlying.trim().toUpperCase();
    if (!und) return;
    const code = expiryCodeOf(c.expiry);
    if (c.strikes.length > 0) this.strikesBy.set(`${und}:${code}`, [...c.strikes]);
    this.#chain = { ...c, underlying: und };
    // The legs pin the underlying: another underlying's chain only updates its own strikes.
    if ((this.legs.length > 0 || this.following) && und !== this.underlying) return;
    this.#follow(this.#chain);
  }

  /** Takes the chain's underlying, expiries, money and spot as the builder's own. */
  #follow(c: ChainSnapshot): void {
    this.underlying = c.underlying;
    this.exchange = c.exchange;
    this.expiries = c.expiries.map(expiryCodeOf);
    this.expiry = expiryCodeOf(c.expiry);
    this.atm = c.atm;
    this.#chainSpot = c.spot;
    if (c.spotRef) this.spotRef = c.spotRef;
    this.#chainQuotes = c.quotes;
  }

  /** The spot the chain pane shows (each tick of it). */
  takeSpot(underlying: string, spot: number | undefined): void {
    const und = underlying.trim().toUpperCase();
    if (this.#chain?.underlying === und) this.#chain = { ...this.#chain, spot };
    if (und === this.underlying) this.#chainSpot = spot;
  }

  strikesOf(code: string): ChainStrike[] {
    return this.strikesBy.get(`${this.underlying}:${code}`) ?? [];
  }

  /** A chain cell clicked while building: a leg of that contract on that side. */
  add(pick: ChainPick): boolean {
    if (this.readOnly) {
      this.notice = `Following ${this.following?.name}: stop following to build`;
      return false;
    }
    const und = parseSymbol(pick.symbol);
    const name = und.kind === 'option' ? und.underlying : '';
    if (this.legs.length > 0 && name !== this.underlying) {
      this.notice = `The builder holds ${this.underlying} legs: clear them to build on ${name}`;
      return false;
    }
    if (this.legs.length >= 20 && !this.legs.some((l) => l.symbol === pick.symbol)) {
      this.notice = 'A strategy has at most 20 legs';
      return false;
    }
    if (this.legs.length === 0 && this.#chain?.underlying === name) this.#follow(this.#chain);
    else if (this.legs.length === 0 && name) this.underlying = name;
    const out = addPick(this.legs, pick, this.#nextId++);
    this.legs = out.legs;
    this.notice = out.said;
    if (pick.quote) this.quotes.set(chainKey(pick), pick.quote);
    return true;
  }

  // ---- leg edits ----

  #edit(id: number, change: (l: BuilderLeg) => BuilderLeg | string): void {
    if (this.readOnly) return;
    const at = this.legs.findIndex((l) => l.id === id);
    const had = this.legs[at];
    if (!had) return;
    const out = change(had);
    if (typeof out === 'string') {
      this.notice = out;
      return;
    }
    const dup = this.legs.some((l, i) => i !== at && l.symbol === out.symbol && l.exchange === out.exchange);
    if (dup) {
      this.notice = `${out.strikeText} ${out.kind} ${expiryWords(out.expiry)} is already a leg: change its lots instead`;
      return;
    }
    const next = [...this.legs];
    next[at] = out;
    this.legs = next;
    this.notice = undefined;
    if (out.symbol !== had.symbol) void this.#quoteNow([out]);
  }

  /** Moves a leg to the next listed strike up (+1) or down (−1) of its expiry. */
  stepStrike(id: number, dir: 1 | -1): void {
    this.#edit(id, (l) => {
      const s = stepStrike(this.strikesOf(l.expiry), l, dir);
      const c = s?.[l.kind];
      if (!s || !c) return `No listed ${l.kind} strike ${dir > 0 ? 'above' : 'below'} ${l.strikeText}`;
      return {
        ...l,
        symbol: c.symbol,
        strike: s.strike,
        strikeText: s.strikeText,
        lotSize: c.lotSize,
        tickSize: c.tickSize,
        premium: null,
        iv: null,
      };
    });
  }

  /** Moves a leg to another listed expiry at the same strike (its strikes read first when needed). */
  async setExpiry(id: number, code: string): Promise<void> {
    if (!(await this.#ensureStrikes(code))) return;
    this.#edit(id, (l) => {
      const s = this.strikesOf(code).find((x) => x.strike === l.strike);
      const c = s?.[l.kind];
      if (!s || !c) return `${l.strikeText} ${l.kind} is not listed for ${expiryWords(code)}`;
      return {
        ...l,
        symbol: c.symbol,
        expiry: code,
        lotSize: c.lotSize,
        tickSize: c.tickSize,
        premium: null,
        iv: null,
      };
    });
  }

  flipSide(id: number): void {
    this.#edit(id, (l) => ({ ...l, side: l.side === 'BUY' ? 'SELL' : 'BUY' }));
  }

  setLots(id: number, lots: number): void {
    this.#edit(id, (l) =>
      Number.isInteger(lots) && lots >= 1 && lots <= 10_000
        ? { ...l, lots }
        : 'Lots are a whole number from 1',
    );
  }

  remove(id: number): void {
    if (this.readOnly) return;
    this.legs = this.legs.filter((l) => l.id !== id);
    this.notice = undefined;
  }

  clear(): void {
    if (this.readOnly) return;
    this.legs = [];
    this.result = undefined;
    this.sendError = undefined;
    this.whatIfSpot = undefined;
    this.notice = undefined;
  }

  // ---- templates ----

  readonly templates = STRATEGY_TEMPLATES;

  /** Replaces the legs with a template placed around the chain's at-the-money strike. */
  async applyTemplate(id: string): Promise<boolean> {
    if (this.readOnly) return false;
    const t = STRATEGY_TEMPLATES.find((x) => x.id === id);
    if (!t) return false;
    // A template is built on the chain shown (its underlying, expiry and money), replacing the legs.
    if (this.#chain && this.#chain.underlying !== this.underlying) this.#follow(this.#chain);
    const code = this.expiry;
    const strikes = this.strikesOf(code);
    const atm = this.atm;
    const atmIndex = atm === undefined ? -1 : strikes.findIndex((s) => s.strike === atm);
    if (strikes.length === 0 || atmIndex < 0) {
      this.notice = `${t.name}: load a chain with an at-the-money strike first`;
      return false;
    }
    const placed = placeTemplate(
      t,
      strikes.map((s) => s.strike),
      atmIndex,
    );
    if ('error' in placed) {
      this.notice = `${t.name}: ${placed.error}`;
      return false;
    }
    const at = this.expiries.indexOf(code);
    const next = at >= 0 ? this.expiries[at + 1] : undefined;
    const needsNext = placed.legs.some((l) => l.expiry === 1);
    if (needsNext && !next) {
      this.notice = `${t.name}: no expiry after ${expiryWords(code)} is listed, and a calendar needs the next one`;
      return false;
    }
    if (needsNext && next && !(await this.#ensureStrikes(next))) return false;
    const legs: BuilderLeg[] = [];
    for (const p of placed.legs) {
      const base = strikes[p.strikeIndex];
      const exp = p.expiry === 1 && next ? next : code;
      const row = exp === code ? base : this.strikesOf(exp).find((s) => s.strike === base?.strike);
      const c = row?.[p.kind];
      if (!row || !c) {
        this.notice = `${t.name}: ${base?.strikeText ?? '?'} ${p.kind} is not listed for ${expiryWords(exp)}`;
        return false;
      }
      const q = this.#chainQuotes?.get(chainKey(c));
      if (q) this.quotes.set(chainKey(c), q);
      legs.push({
        id: this.#nextId++,
        symbol: c.symbol,
        exchange: c.exchange,
        kind: p.kind,
        strike: row.strike,
        strikeText: row.strikeText,
        expiry: exp,
        side: p.side,
        lots: p.lots,
        lotSize: c.lotSize,
        tickSize: c.tickSize,
        premium: livePremium(q),
        iv: null,
      });
    }
    this.legs = legs;
    this.result = undefined;
    this.sendError = undefined;
    if (!this.name.trim()) this.name = `${this.underlying} ${t.name}`.slice(0, 40);
    this.notice = `${t.name}: ${legs.length} legs around ${atm}`;
    void this.#quoteNow(legs.filter((l) => l.premium === null));
    return true;
  }

  /** Reads an expiry's listed strikes (`market.search`) when they are not known yet. */
  async #ensureStrikes(code: string): Promise<boolean> {
    if (this.strikesOf(code).length > 0) return true;
    const res = await this.#bridge.invoke('market.search', {
      query: `${this.underlying}${code}`,
      exchange: this.exchange as Exchange,
    });
    if (!res.ok) {
      this.notice = `The ${expiryWords(code)} strikes could not be read: ${res.error.message}`;
      return false;
    }
    const strikes = chainStrikes(res.value.data, this.underlying, code);
    if (strikes.length === 0) {
      this.notice = `No ${this.underlying} options are listed for ${expiryWords(code)}`;
      return false;
    }
    this.strikesBy.set(`${this.underlying}:${code}`, strikes);
    return true;
  }

  /** Quotes contracts now (one multiquotes), so a new leg has a premium before the watch's first tick. */
  async #quoteNow(legs: readonly { symbol: string; exchange: string }[]): Promise<void> {
    const symbols = [...legs, ...(this.spotRef && this.spot === undefined ? [this.spotRef] : [])];
    if (symbols.length === 0) return;
    const res = await this.#bridge.invoke('market.multiquotes', {
      symbols: symbols.map((s) => ({ symbol: s.symbol, exchange: s.exchange as Exchange })),
    });
    if (!res.ok) return;
    for (const [key, q] of quotesFromMulti(res.value.results).quotes) {
      const had = this.quotes.get(key);
      if (!had || had.seq <= q.seq) this.quotes.set(key, q);
    }
  }

  // ---- what-ifs ----

  /** The slider's range: the payoff grid's ends. */
  readonly spotRange = $derived.by(() => {
    const c = this.curves;
    if (!c || c.spots.length === 0) return undefined;
    return { min: c.spots[0]!, max: c.spots[c.spots.length - 1]! };
  });

  setIvShift(points: number): void {
    this.ivShift = Math.max(-IV_SHIFT_MAX, Math.min(IV_SHIFT_MAX, Math.round(points)));
  }

  resetWhatIf(): void {
    this.whatIfSpot = undefined;
    this.ivShift = 0;
    this.daysAhead = 0;
  }

  // ---- send ----

  readonly stop = $derived(rupeesOf(this.stopText));
  readonly target = $derived(rupeesOf(this.targetText));

  /** Why the strategy cannot be sent as it stands; undefined when it can. */
  readonly sendProblem = $derived.by((): string | undefined => {
    if (this.readOnly) return `Following ${this.following?.name}: read only`;
    if (this.legs.length === 0) return 'Add legs from the chain or a template';
    // A sent strategy is followed below until Done: a second press never sends the same legs again.
    if (this.result) return `“${this.result.name}” was sent: Done under its legs to build another`;
    if (!this.name.trim()) return 'Name the strategy';
    if (this.name.trim().length > 40) return 'The name is at most 40 characters';
    if (Number.isNaN(this.stop)) return 'The stop is rupees more than 0, paise at most';
    if (Number.isNaN(this.target)) return 'The target is rupees more than 0, paise at most';
    if (this.pricetype === 'LIMIT' && this.shownLegs.some((l) => l.premium === null))
      return 'A leg has no premium to limit at';
    return undefined;
  });

  #input(): StrategySendInput {
    return {
      name: this.name.trim(),
      product: this.product,
      legs: sendLegsOf(this.shownLegs, this.pricetype),
      ...(this.stop !== undefined ? { stop: this.stop } : {}),
      ...(this.target !== undefined ? { target: this.target } : {}),
    };
  }

  #modeLine(): string {
    const mode = this.#deps.mode?.();
    return mode ? MODE_LINE[mode] : 'The session mode is not known yet.';
  }

  #marginLine(): string {
    const m = this.margin;
    if (m.kind === 'answer')
      return `Margin ${formatMoney(m.value.total)} (${m.value.source === 'paper' ? 'paper estimate' : 'gateway'}).`;
    if (m.kind === 'problem') return `Margin unknown: ${m.why}.`;
    return 'Margin not known yet.';
  }

  /** Asks, then sends the strategy once; its answer (per-leg states) lands in `result`. */
  async send(): Promise<boolean> {
    if (this.sending || this.sendProblem) {
      if (this.sendProblem) this.sendError = this.sendProblem;
      return false;
    }
    const input = this.#input();
    const legs = buysFirst(this.shownLegs);
    const extra = [
      this.stop !== undefined ? `stop at a loss of ${formatMoney(this.stop)}` : '',
      this.target !== undefined ? `target at a profit of ${formatMoney(this.target)}` : '',
    ].filter(Boolean);
    const yes = await this.#deps.confirm.ask({
      title: `Send the strategy “${input.name}”?`,
      lines: [
        this.#modeLine(),
        ...legs.map((l) => legLine(l, this.pricetype)),
        `${input.product} · BUY legs first, one at a time; a refused leg stops the rest.`,
        ...(extra.length ? [`Exit all legs at ${extra.join(' or ')}.`] : []),
        this.#marginLine(),
      ],
      confirmLabel: `Send ${legs.length} leg${legs.length === 1 ? '' : 's'}`,
      cancelLabel: 'Back',
      tone: 'danger',
    });
    if (!yes) return false;
    return this.#call(() => this.#bridge.invoke('strategies.send', input));
  }

  /** Sends the legs still waiting of a partial strategy (asked first). */
  async resume(): Promise<boolean> {
    const r = this.result;
    if (!r || this.sending) return false;
    const waiting = r.legs.filter((l) => l.state === 'waiting' || l.state === 'refused');
    const yes = await this.#deps.confirm.ask({
      title: `Send the remaining legs of “${r.name}”?`,
      lines: [
        this.#modeLine(),
        ...waiting.map((l) => `${l.action} ${l.quantity} ${l.symbol} (${l.state})`),
        'The refused leg is sent again as it was; the others follow it.',
      ],
      confirmLabel: 'Send remaining',
      cancelLabel: 'Back',
      tone: 'danger',
    });
    if (!yes) return false;
    return this.#call(() => this.#bridge.invoke('strategies.resume', { id: r.id }));
  }

  /** Exits the legs already sent of a partial strategy (asked first). */
  async unwind(): Promise<boolean> {
    const r = this.result;
    if (!r || this.sending) return false;
    const sent = r.legs.filter((l) => l.open !== 0 || l.state === 'sent');
    const yes = await this.#deps.confirm.ask({
      title: `Unwind the sent legs of “${r.name}”?`,
      lines: [
        this.#modeLine(),
        ...sent.map(
          (l) =>
            `${l.action === 'BUY' ? 'SELL' : 'BUY'} ${Math.abs(l.open) || l.quantity} ${l.symbol} to close`,
        ),
        'The exits go as one basket at market; the waiting legs are not sent.',
      ],
      confirmLabel: 'Unwind sent legs',
      cancelLabel: 'Back',
      tone: 'danger',
    });
    if (!yes) return false;
    return this.#call(() => this.#bridge.invoke('strategies.exit', { id: r.id }));
  }

  async #call(
    run: () => Promise<{ ok: true; value: StrategyView } | { ok: false; error: IpcError }>,
  ): Promise<boolean> {
    this.sending = true;
    this.sendError = undefined;
    try {
      const res = await run();
      if (res.ok) {
        this.result = res.value;
        return true;
      }
      const k = res.error.kind;
      this.sendError =
        k === 'unknown_outcome' || k === 'timeout'
          ? `No answer: it may have gone out. See the Strategies book before sending again (${res.error.message})`
          : res.error.message;
      return false;
    } finally {
      this.sending = false;
    }
  }

  /** Starts over after a send: the answer goes, the legs stay to build on. */
  dismissResult(): void {
    this.result = undefined;
    this.sendError = undefined;
  }

  // ---- following a saved strategy ----

  /** Shows a saved strategy's payoff now, read-only, and asks for the Strategy tab. */
  showSaved(view: StrategyView): void {
    if (!this.following) this.#draft = this.legs;
    this.following = view;
    const legs = savedLegs(view);
    this.legs = legs;
    if (view.underlying !== this.underlying) {
      this.underlying = view.underlying;
      this.spotRef = undefined;
      this.atm = undefined;
      this.#chainSpot = undefined;
      const ex = legs[0]?.exchange ?? 'NFO';
      this.exchange = ex;
      void this.#findSpot(view.underlying, ex);
    }
    this.whatIfSpot = undefined;
    this.notice = undefined;
    void this.#quoteNow(legs);
    this.revealCount++;
  }

  /** Back to the legs being built before. */
  stopFollowing(): void {
    if (!this.following) return;
    this.following = undefined;
    this.notice = undefined;
    this.legs = this.#draft ?? [];
    this.#draft = undefined;
    const und = this.legs[0] ? parseSymbol(this.legs[0].symbol) : undefined;
    if (und?.kind === 'option' && und.underlying !== this.underlying) {
      this.underlying = und.underlying;
      this.spotRef = undefined;
      void this.#findSpot(und.underlying, this.legs[0]!.exchange);
    }
  }

  /** Asks the Strategy tab to show. */
  reveal(): void {
    this.revealCount++;
  }

  /** The index or cash quote of an underlying, for a saved strategy's spot. */
  async #findSpot(underlying: string, exchange: string): Promise<void> {
    const candidates = exchange === 'BFO' ? ['BSE_INDEX', 'BSE'] : ['NSE_INDEX', 'NSE'];
    const res = await this.#bridge.invoke('market.multiquotes', {
      symbols: candidates.map((x) => ({ symbol: underlying, exchange: x as Exchange })),
    });
    if (!res.ok || this.underlying !== underlying) return;
    const q = quotesFromMulti(res.value.results).quotes;
    const ref = candidates
      .map((x) => ({ symbol: underlying, exchange: x }))
      .find((c) => (q.get(chainKey(c))?.ltp ?? 0) > 0);
    if (!ref) return;
    this.spotRef = ref;
    this.quotes.set(chainKey(ref), q.get(chainKey(ref))!);
  }

  // ---- following the market ----

  /** The legs' and the spot's keys, for the watch and the greeks. */
  readonly #legKeys = $derived(this.legs.map(chainKey).join(' '));

  /** Starts the builder's quotes, greeks, margin and answer following; returns what stops them. */
  start(): () => void {
    const now = this.#deps.now ?? Date.now;
    this.clock = now();
    const timer = setInterval(() => (this.clock = now()), 60_000);
    // A tick moves the spot and every leg as separate events: they are taken together, once a frame,
    // so the payoff and its table are worked out and drawn once per frame, not once per quote.
    // Not state: only the frame's apply reads it.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const waiting = new Map<string, ChainQuote>();
    let frame: number | undefined;
    const apply = () => {
      frame = undefined;
      for (const [key, q] of waiting) {
        const had = this.quotes.get(key);
        if (!had || had.seq < q.seq) this.quotes.set(key, q);
      }
      waiting.clear();
    };
    const offs = [
      this.#bridge.on('market.quote', (e) => {
        const key = chainKey(e);
        const ref = this.spotRef;
        if (!this.legs.some((l) => chainKey(l) === key) && !(ref && chainKey(ref) === key)) return;
        const had = waiting.get(key) ?? this.quotes.get(key);
        if (had && had.seq >= e.seq) return;
        waiting.set(key, quoteFromEvent(e));
        frame ??= requestAnimationFrame(apply);
      }),
      () => {
        if (frame !== undefined) cancelAnimationFrame(frame);
      },
      this.#bridge.on('strategies.list', (e) => {
        for (const s of e.strategies) {
          if (this.result?.id === s.id) this.result = s;
          if (this.following?.id === s.id) {
            this.following = s;
            this.legs = savedLegs(s);
          }
        }
      }),
    ];
    let greeksTimer: ReturnType<typeof setTimeout> | undefined;
    const stopEffects = $effect.root(() => {
      $effect(() => this.#asker.follow(this.marginAsk));
      $effect(() => {
        const symbols = [...(this.spotRef ? [this.spotRef] : []), ...this.legs];
        const input =
          this.legs.length > 0
            ? {
                symbols: symbols.map((s) => ({ symbol: s.symbol, exchange: s.exchange as Exchange })),
                mode: 'quote' as const,
              }
            : undefined;
        void this.slot.set(input);
      });
      $effect(() => {
        const keys = this.#legKeys;
        clearTimeout(greeksTimer);
        if (!keys) return;
        greeksTimer = setTimeout(() => untrack(() => void this.#readGreeks()), GREEKS_DELAY_MS);
      });
    });
    return () => {
      clearInterval(timer);
      clearTimeout(greeksTimer);
      stopEffects();
      offs.forEach((off) => off());
      void this.slot.set(undefined);
    };
  }

  /** Reads the legs' IV and greeks (market.optionGreeks); an answer to an earlier read is dropped. */
  async #readGreeks(): Promise<void> {
    const seq = ++this.#greeksSeq;
    const legs = this.legs;
    if (legs.length === 0) return;
    const res = await this.#bridge.invoke('market.optionGreeks', {
      symbols: legs.map((l) => ({ symbol: l.symbol, exchange: l.exchange as Exchange })),
    });
    if (seq !== this.#greeksSeq) return;
    if (!res.ok) {
      this.greeksError = `IV and greeks unavailable: ${res.error.message}`;
      return;
    }
    this.greeksError = undefined;
    for (const g of res.value.greeks) this.greeksBy.set(chainKey(g), g);
  }
}
