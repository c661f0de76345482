// Over 300 lines: subscriptions, the polling pump and the feed hand-over share one profile's state.
// Market subscriptions served by polling the active profile's gateway inside its one rate budget
// (architecture rule 5): reads in the background lane, a bounded number outstanding, none while the budget
// is busy, the focused depth first, the rest round-robin (see plan.ts for the rates). Subscriptions
// belong to the core, not to a profile: a profile switch keeps them (and their ids) and polls them on
// the new profile's gateway, which validates them again; instruments it does not know get one
// `market.error` (not_found) and are not asked for there. While the profile's WebSocket feed is live
// (core/feed), the same subscriptions are followed over it and polling stops; when it is down,
// polling takes over at once.
import {
  errorMessage,
  type ChannelArgs,
  type IpcError,
  type IpcResult,
  type MarketMode,
  type MarketUnwatchResult,
  type MarketWatchResult,
  type QuoteData,
  type WsMarketData,
} from '../../contract/index.js';
import type { Clock, GatewayError } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import { failResult, fromGatewayError, okResult } from '../router/results.js';
import { describeInstruments, instrumentKey, uniqueInstruments, type Instrument } from './instruments.js';
import { DEFAULT_PLAN, periods, reserveFor, retryDelay, type MarketPlan } from './plan.js';
import { Subscriptions } from './subscriptions.js';
import {
  focusJob,
  nextShared,
  sharedJobs,
  waitingUntil,
  type Job,
  type Lane,
  type Live,
  type MarketClient,
} from './poll-jobs.js';
import { depthTick, ltpTick, quoteTick } from './ticks.js';
import { depthOfTick, feedSymbols, quoteOfTick } from './feed-ticks.js';
import { checkInstruments, isUnknownInstrument, notFound, readRows } from './validate.js';

export type { MarketClient } from './poll-jobs.js';

/** Live subscriptions at most, and distinct instruments per mode at most. */
export const MAX_SUBSCRIPTIONS = 256;
export const MAX_PER_MODE = 500;

export interface MarketWatchOptions {
  clock: Clock;
  emit: Emit;
  logger: Logger;
  visible?: boolean;
  plan?: Partial<MarketPlan>;
}

export interface MarketStats {
  subscriptions: number;
  outstanding: number;
  /** Requests sent on this profile, by lane. */
  sent: { focus: number; shared: number };
}

/** The feed side (core/feed/feed-link.ts): what to follow, its ticks and whether it is live. */
export interface MarketFeedPort {
  /** A feed is there: tell it what to follow now and on every change. */
  attachFeed(setSymbols: (symbols: { symbol: string; exchange: string; mode: 1 | 3 }[]) => void): void;
  detachFeed(): void;
  /** Live: polling stops; not: polling resumes at once. */
  feedStatus(live: boolean): void;
  feedTick(tick: WsMarketData): void;
}

export interface MarketWatch extends MarketFeedPort {
  /** From now on, poll through this profile's client (a profile switch): subscriptions stay. */
  setSession(profileId: string, client: MarketClient): void;
  setVisibility(visible: boolean): void;
  watch(input: ChannelArgs<'market.watch'>): Promise<IpcResult<MarketWatchResult>>;
  unwatch(id: string): IpcResult<MarketUnwatchResult>;
  stop(): void;
  stats(): MarketStats;
}

export function createMarketWatch(o: MarketWatchOptions): MarketWatch {
  const { clock, emit, logger } = o;
  const plan: MarketPlan = { ...DEFAULT_PLAN, ...o.plan };
  const subs = new Subscriptions();
  let visible = o.visible ?? false;
  let live: Live | undefined;
  let stopped = false;
  let cancelTimer: (() => void) | undefined;
  let feed: { setSymbols: Parameters<MarketFeedPort['attachFeed']>[0]; live: boolean } | undefined;

  function syncFeed(): void {
    const s = live;
    feed?.setSymbols(feedSymbols((m) => subs.following(m).filter((i) => !s?.unknown.has(instrumentKey(i)))));
  }

  const stamp = (s: Live) => ({ profileId: s.profileId, time: clock.now() });

  function pump(): void {
    cancelTimer?.();
    cancelTimer = undefined;
    const s = live;
    if (stopped || !s) return;
    // The feed carries every subscription while it is live.
    if (feed?.live) return;
    const now = clock.now();
    const every = periods(plan, visible);
    let wake = Infinity;
    while (s.outstanding < plan.maxOutstanding) {
      let pick: { job: Job; lane: Lane } | undefined;
      const focus = focusJob(s, subs);
      if (focus && !s.inFlight.has(focus.id)) {
        const due = Math.max(s.lastFocusAt + every.focusMs, waitingUntil(s, focus));
        if (due <= now) pick = { job: focus, lane: 'focus' };
        else wake = Math.min(wake, due);
      }
      if (!pick) {
        const jobs = sharedJobs(s, subs);
        if (jobs.length > 0) {
          const due = s.lastSharedAt + every.sharedMs;
          if (due > now) wake = Math.min(wake, due);
          else {
            const next = nextShared(s, jobs, now);
            if (next.job) pick = { job: next.job, lane: 'shared' };
            else wake = Math.min(wake, next.retryAt);
          }
        }
      }
      if (!pick) break;
      // Orders first: never queue behind others, never take the budget's last free slots.
      const load = s.client.load();
      if (load.waiting > 0 || load.free <= reserveFor(plan, pick.lane, load.limit)) {
        wake = Math.min(wake, now + plan.deferMs);
        break;
      }
      send(s, pick.job, pick.lane, now);
    }
    if (wake !== Infinity && s.outstanding < plan.maxOutstanding) {
      cancelTimer = clock.setTimer(pump, Math.max(0, wake - now));
    }
  }

  function send(s: Live, job: Job, lane: Lane, now: number): void {
    s.outstanding++;
    s.inFlight.add(job.id);
    s.sent[lane]++;
    if (lane === 'focus') s.lastFocusAt = now;
    else {
      s.lastSharedAt = now;
      s.cursor = job.id;
    }
    void poll(s, job)
      .catch((err: unknown) => {
        logger.error('market poll failed', { error: errorMessage(err) });
      })
      .finally(() => {
        if (s !== live) return;
        s.outstanding--;
        s.inFlight.delete(job.id);
        pump();
      });
  }

  async function poll(s: Live, job: Job): Promise<void> {
    switch (job.kind) {
      case 'multiquotes': {
        const r = await s.client.multiquotes({ symbols: job.symbols.map((i) => ({ ...i })) });
        if (s !== live) return;
        if (r.ok) {
          succeeded(s, job);
          for (const row of readRows(r.value.results, job.symbols)) {
            if (row.quote) quoted(s, row.instrument, row.quote);
            else unknownHere(s, row.instrument, row.error ?? '');
          }
        } else if (r.error.kind === 'not_offered') {
          // Polled one symbol at a time from now on (the client remembers the 404 too).
          s.multiquotes = false;
          succeeded(s, job);
        } else if (isUnknownInstrument(r.error)) {
          for (const i of job.symbols) unknownHere(s, i, r.error.message);
        } else failed(s, job, job.symbols, r.error);
        return;
      }
      case 'quotes': {
        const r = await s.client.quotes({ ...job.symbol });
        if (s !== live) return;
        if (r.ok) {
          succeeded(s, job);
          quoted(s, job.symbol, r.value.data);
        } else if (isUnknownInstrument(r.error)) unknownHere(s, job.symbol, r.error.message);
        else failed(s, job, [job.symbol], r.error);
        return;
      }
      case 'depth': {
        const r = await s.client.depth({ ...job.symbol });
        if (s !== live) return;
        if (r.ok) {
          succeeded(s, job);
          s.valid.add(instrumentKey(job.symbol));
          if (subs.refs('depth', job.symbol) > 0)
            emit('market.depth', depthTick(stamp(s), job.symbol, r.value.data));
        } else if (isUnknownInstrument(r.error)) unknownHere(s, job.symbol, r.error.message);
        else failed(s, job, [job.symbol], r.error);
        return;
      }
    }
  }

  /** A quote for `i`: to its ltp and quote watchers (or only to those of `only`). */
  function quoted(s: Live, i: Instrument, quote: QuoteData, only?: MarketMode): void {
    s.valid.add(instrumentKey(i));
    const wanted = (mode: MarketMode) => (only === undefined || only === mode) && subs.refs(mode, i) > 0;
    if (wanted('ltp')) emit('market.ltp', ltpTick(stamp(s), i, quote));
    if (wanted('quote')) emit('market.quote', quoteTick(stamp(s), i, quote));
  }

  function succeeded(s: Live, job: Job): void {
    s.backoff.delete(job.id);
  }

  /** The gateway does not know `i`: say so once per mode it is watched in, and stop asking for it. */
  function unknownHere(s: Live, i: Instrument, message: string): void {
    const key = instrumentKey(i);
    if (s.unknown.has(key)) return;
    s.unknown.add(key);
    s.valid.delete(key);
    const error = notFound(message || `the gateway does not know ${key}`);
    for (const mode of subs.modesOf(i))
      emit('market.error', { ...stamp(s), mode, symbols: [{ ...i }], error });
  }

  /** A transient failure: retried with backoff; reported once per run of failures (and kind). */
  function failed(s: Live, job: Job, symbols: readonly Instrument[], error: GatewayError): void {
    const now = clock.now();
    const b = s.backoff.get(job.id) ?? { failures: 0, retryAt: now, reported: '' };
    b.failures++;
    b.retryAt = now + Math.max(retryDelay(plan, b.failures), (error.retryAfter ?? 0) * 1000);
    s.backoff.set(job.id, b);
    if (b.reported === error.kind) return;
    b.reported = error.kind;
    const ipc: IpcError = fromGatewayError(error);
    for (const mode of ['ltp', 'quote', 'depth'] as const) {
      if (job.kind === 'depth' ? mode !== 'depth' : mode === 'depth') continue;
      const watched = symbols.filter((i) => subs.refs(mode, i) > 0).map((i) => ({ ...i }));
      if (watched.length > 0) emit('market.error', { ...stamp(s), mode, symbols: watched, error: ipc });
    }
    logger.warn('market data unavailable', {
      profileId: s.profileId,
      kind: error.kind,
      instruments: describeInstruments(symbols),
      retryInMs: b.retryAt - now,
    });
  }

  function over(mode: MarketMode, added: readonly Instrument[]): boolean {
    const keys = new Set(subs.following(mode).map(instrumentKey));
    for (const i of added) keys.add(instrumentKey(i));
    return keys.size > MAX_PER_MODE;
  }

  return {
    setSession(profileId, client) {
      live = {
        profileId,
        client,
        valid: new Set(),
        unknown: new Set(),
        multiquotes: true,
        inFlight: new Set(),
        backoff: new Map(),
        outstanding: 0,
        lastFocusAt: -Infinity,
        lastSharedAt: -Infinity,
        cursor: undefined,
        sent: { focus: 0, shared: 0 },
      };
      pump();
    },

    setVisibility(v) {
      visible = v;
      pump();
    },

    async watch(input) {
      const s = live;
      if (stopped || !s) return failResult('internal', 'market data is not running');
      const symbols = uniqueInstruments(input.symbols);
      const focus = input.focus ?? false;
      if (subs.size >= MAX_SUBSCRIPTIONS)
        return failResult(
          'conflict',
          `at most ${MAX_SUBSCRIPTIONS} market subscriptions; unwatch some first`,
        );
      if (over(input.mode, symbols))
        return failResult(
          'conflict',
          `at most ${MAX_PER_MODE} instruments in ${input.mode} mode; unwatch some first`,
        );

      // Validated once per profile: only instruments this gateway has not confirmed cost a request.
      const unchecked = symbols.filter((i) => !s.valid.has(instrumentKey(i)));
      const quotes = new Map<string, QuoteData>();
      const rejected = new Map<string, IpcError>();
      if (unchecked.length > 0) {
        const r = await checkInstruments(s.client, unchecked, s.multiquotes);
        if (!r.ok) return { ok: false, error: fromGatewayError(r.error) };
        const current = s === live;
        if (current && r.value.multiquotesMissing) s.multiquotes = false;
        for (const [key, known] of r.value.known) {
          quotes.set(key, known.quote);
          if (current) {
            s.valid.add(key);
            s.unknown.delete(key);
          }
        }
        for (const { instrument, error } of r.value.rejected) rejected.set(instrumentKey(instrument), error);
      }
      const accepted = symbols.filter((i) => !rejected.has(instrumentKey(i)));
      const refused = symbols
        .filter((i) => rejected.has(instrumentKey(i)))
        .map((i) => ({ ...i, error: rejected.get(instrumentKey(i)) ?? notFound('unknown symbol') }));
      if (accepted.length === 0) {
        const said = refused[0]?.error.message;
        return failResult(
          'not_found',
          `the gateway knows none of ${describeInstruments(symbols)}${said ? ` (gateway: ${said})` : ''}`,
        );
      }
      if (stopped) return failResult('internal', 'market data is not running');
      const sub = subs.add(input.mode, accepted, focus);
      syncFeed();
      // What validation read is the first data (the profile may have changed meanwhile: then not).
      const now = live;
      if (now === s && input.mode !== 'depth') {
        for (const i of accepted) {
          const quote = quotes.get(instrumentKey(i));
          if (quote) quoted(now, i, quote, input.mode);
        }
      }
      pump();
      return okResult({
        id: sub.id,
        mode: sub.mode,
        focus: sub.focus,
        symbols: sub.symbols.map((i) => ({ ...i })),
        rejected: refused,
      });
    },

    unwatch(id) {
      const removed = subs.remove(id);
      if (!removed) return failResult('not_found', `no market subscription ${id}`);
      syncFeed();
      pump();
      return okResult({ id, stopped: removed.stopped.map((i) => ({ ...i })) });
    },

    stop() {
      stopped = true;
      cancelTimer?.();
      cancelTimer = undefined;
      live = undefined;
    },

    attachFeed(setSymbols) {
      feed = { setSymbols, live: false };
      syncFeed();
    },
    detachFeed() {
      feed = undefined;
      pump();
    },
    feedStatus(isLive) {
      if (!feed || feed.live === isLive) return;
      feed.live = isLive;
      pump();
    },
    feedTick(t) {
      const s = live;
      if (!s || stopped || !feed) return;
      const i = subs.find(instrumentKey(t));
      if (!i) return;
      if (subs.refs('ltp', i) > 0) emit('market.ltp', ltpTick(stamp(s), i, t.data));
      const quote = quoteOfTick(t);
      if (quote && subs.refs('quote', i) > 0) emit('market.quote', quoteTick(stamp(s), i, quote));
      const depth = depthOfTick(t);
      if (depth && subs.refs('depth', i) > 0) emit('market.depth', depthTick(stamp(s), i, depth));
    },

    stats: () => ({
      subscriptions: subs.size,
      outstanding: live?.outstanding ?? 0,
      sent: { ...(live?.sent ?? { focus: 0, shared: 0 }) },
    }),
  };
}
