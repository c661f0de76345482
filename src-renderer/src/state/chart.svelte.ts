// The chart pane's state: the gateway's bar intervals (`market.intervals`), the chosen one, and the
// bars of the instrument (`market.ticker`, bounded by lookbackFrom) as candles and volume. Drawing is
// the pane's; this holds only what was read, from which question, and why a read failed.
import type { BridgeApi, Exchange, TickerInterval } from '@contract';
import {
  barsToSeries,
  defaultInterval,
  intervalList,
  lookbackFrom,
  type ChartSeries,
} from '../lib/chart-data';

export interface ChartTarget {
  symbol: string;
  exchange: string;
}

const EMPTY: ChartSeries = { candles: [], volumes: [] };

export class ChartState {
  intervals = $state.raw<string[]>([]);
  interval = $state<string>('1m');
  /** The instrument the bars are of. */
  target = $state.raw<ChartTarget | undefined>();
  series = $state.raw<ChartSeries>(EMPTY);
  loading = $state(false);
  /** Why the bars could not be read (or an interval was refused). */
  error = $state<string | undefined>();
  /** Why the gateway's intervals could not be read (the chart still loads at its default one). */
  intervalsError = $state<string | undefined>();
  /** Bumped on each completed load: the pane re-fits the view to a new series, not to a tick. */
  loads = $state(0);
  /** How long the last bars read took, bridge to state (ms). */
  lastLoadMs = $state<number | undefined>();

  readonly #bridge: BridgeApi;
  readonly #now: () => number;
  #seq = 0;

  constructor(bridge: BridgeApi, now: () => number = Date.now) {
    this.#bridge = bridge;
    this.#now = now;
  }

  /** Reads the intervals the gateway offers; keeps the chosen one when it is among them. */
  async loadIntervals(): Promise<void> {
    const res = await this.#bridge.invoke('market.intervals');
    if (!res.ok) {
      this.intervalsError = `Intervals could not be read: ${res.error.message}`;
      return;
    }
    this.intervalsError = undefined;
    this.intervals = intervalList(res.value.data);
    if (!this.intervals.includes(this.interval))
      this.interval = defaultInterval(this.intervals) ?? this.interval;
  }

  /** Shows `target`'s bars at the chosen interval (undefined: nothing). */
  async show(target: ChartTarget | undefined): Promise<void> {
    this.target = target;
    await this.#load();
  }

  /** Switches the interval and reloads; one the gateway does not offer is refused in words. */
  async setInterval(interval: string): Promise<void> {
    if (this.intervals.length > 0 && !this.intervals.includes(interval)) {
      this.error = `The gateway offers no ${interval} bars`;
      return;
    }
    this.interval = interval;
    await this.#load();
  }

  reload(): Promise<void> {
    return this.#load();
  }

  async #load(): Promise<void> {
    const seq = ++this.#seq;
    const target = this.target;
    this.series = EMPTY;
    if (!target) {
      this.loading = false;
      this.error = undefined;
      return;
    }
    this.loading = true;
    const started = performance.now();
    const from = lookbackFrom(this.interval, this.#now());
    const res = await this.#bridge.invoke('market.ticker', {
      symbol: target.symbol,
      exchange: target.exchange as Exchange,
      // The gateway's own list: main checks it against the known intervals and says so if not.
      interval: this.interval as TickerInterval,
      ...(from ? { from } : {}),
    });
    // A later question (another instrument or interval) owns the pane now.
    if (seq !== this.#seq) return;
    this.loading = false;
    if (!res.ok) {
      this.error = `Bars could not be read: ${res.error.message}`;
      return;
    }
    this.error = undefined;
    this.series = barsToSeries(res.value.data, this.interval);
    this.lastLoadMs = performance.now() - started;
    this.loads += 1;
  }
}
