// The active profile's options strategies (issue 27, docs/strategies.md): read once through
// `strategies.list`, then replaced whole by each `strategies.list` event of that profile. The actions
// go through the core's channels, each asked first where orders go, and answer in words: a name, a
// stop or a target (`strategies.update`), exit every leg as one basket (`strategies.exit`; for a
// partial strategy it unwinds the sent legs), send the remaining legs (`strategies.resume`), roll a
// leg (`strategies.roll`) and remove a closed one (`strategies.remove`). Nothing is sent by itself.
import type { BridgeApi, IpcError, StrategyView } from '@contract';
import { getContext, hasContext, setContext } from 'svelte';
import { SvelteSet } from 'svelte/reactivity';
import { formatMoney } from '@shared/format.js';
import type { LinkState } from '../lib/bridge';
import { followView, type Follower } from '../lib/followed-view';
import {
  exitLines,
  legName,
  parseRupees,
  remainingLegs,
  resumeLines,
  unknownLegs,
  type RollPreview,
} from '../lib/strategy-book-rows';
import type { ConfirmState } from './confirm.svelte';

export interface StrategiesNotice {
  tone: 'ok' | 'error' | 'pending';
  text: string;
  at: number;
}

export interface StrategiesOptions {
  /** The desk's one confirmation dialog: exits, resumes, rolls and removals ask there first. */
  confirm?: ConfirmState;
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
  now?: () => number;
}

export type EditOutcome = { ok: true } | { ok: false; reason: string };

const errorText = (e: IpcError): string => e.message;

export class StrategiesState {
  strategies = $state.raw<StrategyView[]>([]);
  profileId = $state<string | undefined>();
  loaded = $state(false);
  /** Why the strategies could not be read. */
  problem = $state<string | undefined>();
  /** The last action's outcome in words (under the Strategies bar). */
  notice = $state.raw<StrategiesNotice | undefined>();
  /** `op:id` of each action on its way. */
  readonly busy = new SvelteSet<string>();
  /** Ids of the strategies opened to their legs in the book. */
  readonly expanded = new SvelteSet<string>();

  readonly #bridge: BridgeApi;
  readonly #options: StrategiesOptions;
  readonly #follow: Follower<'strategies.list'>;

  constructor(bridge: BridgeApi, options: StrategiesOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
    this.#follow = followView({
      bridge,
      name: 'strategies.list',
      ...(options.onLinkChange ? { onLinkChange: options.onLinkChange } : {}),
      profileId: () => this.profileId,
      apply: (v) => {
        this.profileId = v.profileId;
        this.strategies = v.strategies;
      },
      switched: (profileId) => {
        this.profileId = profileId;
        this.strategies = [];
        this.notice = undefined;
      },
      failed: (error) => {
        this.problem = error ? `Strategies: ${errorText(error)}` : undefined;
        if (!error) this.loaded = true;
      },
    });
  }

  start(): () => void {
    return this.#follow.start();
  }

  reload(): Promise<void> {
    return this.#follow.reload();
  }

  byId(id: string): StrategyView | undefined {
    return this.strategies.find((s) => s.id === id);
  }

  /** One strategy as the core answered it, in place until the next event. */
  #replace(s: StrategyView): void {
    this.strategies = this.strategies.some((x) => x.id === s.id)
      ? this.strategies.map((x) => (x.id === s.id ? s : x))
      : [...this.strategies, s];
  }

  #say(tone: StrategiesNotice['tone'], text: string): void {
    this.notice = { tone, text, at: (this.#options.now ?? Date.now)() };
  }

  async #run<T>(key: string, call: () => Promise<T>): Promise<T | undefined> {
    if (this.busy.has(key)) return undefined;
    this.busy.add(key);
    try {
      return await call();
    } finally {
      this.busy.delete(key);
    }
  }

  async #ask(request: Parameters<ConfirmState['ask']>[0]): Promise<boolean> {
    return this.#options.confirm ? this.#options.confirm.ask(request) : false;
  }

  /** Sets the stop or target (rupees of the strategy's P&L) from the row's text; empty removes it. */
  async setLevel(s: StrategyView, side: 'stop' | 'target', text: string): Promise<EditOutcome> {
    const what = side === 'stop' ? 'Stop' : 'Target';
    const parsed = parseRupees(text, what);
    if (!parsed.ok) return parsed;
    const r = await this.#run(`update:${s.id}`, () =>
      this.#bridge.invoke('strategies.update', { id: s.id, [side]: parsed.value }),
    );
    if (!r) return { ok: false, reason: `${s.name} is being changed: try again` };
    if (!r.ok) return { ok: false, reason: `${what} not set: ${errorText(r.error)}` };
    this.#replace(r.value);
    this.#say(
      'ok',
      parsed.value === null
        ? `${what} of ${s.name} removed`
        : `${what} of ${s.name} set: exits every leg at ${side === 'stop' ? 'a loss' : 'a profit'} of ${formatMoney(parsed.value)}`,
    );
    return { ok: true };
  }

  /** Renames a strategy. */
  async rename(s: StrategyView, name: string): Promise<EditOutcome> {
    const r = await this.#run(`update:${s.id}`, () =>
      this.#bridge.invoke('strategies.update', { id: s.id, name: name.trim() }),
    );
    if (!r) return { ok: false, reason: `${s.name} is being changed: try again` };
    if (!r.ok) return { ok: false, reason: `Not renamed: ${errorText(r.error)}` };
    this.#replace(r.value);
    this.#say('ok', `${s.name} renamed to ${r.value.name}`);
    return { ok: true };
  }

  /**
   * Exits every open leg as one basket at MARKET after a yes that lists them. For a partial strategy
   * this is "unwind the sent legs" (the waiting ones are never sent).
   */
  async exit(s: StrategyView): Promise<boolean> {
    const lines = exitLines(s);
    const unwind = s.state === 'partial';
    if (lines.length === 0) {
      this.#say('error', `${s.name} has nothing open to ${unwind ? 'unwind' : 'exit'}`);
      return false;
    }
    const waiting = remainingLegs(s).length;
    const yes = await this.#ask({
      title: unwind ? `Unwind the sent legs of ${s.name}?` : `Exit ${s.name}?`,
      lines: [`One basket, ${lines.length} order${lines.length === 1 ? '' : 's'}:`, ...lines],
      warnings: unwind && waiting ? [`${waiting} leg${waiting === 1 ? '' : 's'} not sent stay unsent.`] : [],
      confirmLabel: unwind ? 'Unwind sent legs' : 'Exit strategy',
      cancelLabel: 'Keep it',
      tone: 'danger',
    });
    if (!yes) return false;
    const r = await this.#run(`exit:${s.id}`, () => this.#bridge.invoke('strategies.exit', { id: s.id }));
    if (!r) return false;
    if (!r.ok) {
      this.#say('error', `${unwind ? 'Unwind' : 'Exit'} of ${s.name} refused: ${errorText(r.error)}`);
      return false;
    }
    this.#replace(r.value);
    const refused = r.value.exit?.refused ?? [];
    if (refused.length)
      this.#say('error', `${s.name}: exits refused: ${refused.join('; ')}: exit those legs by hand`);
    else
      this.#say(
        'pending',
        `${unwind ? 'Unwind' : 'Exit'} of ${s.name} sent: ${lines.length} order${lines.length === 1 ? '' : 's'}`,
      );
    return true;
  }

  /** Sends the legs that wait (or were refused), after a yes that lists them. */
  async resume(s: StrategyView): Promise<boolean> {
    const lines = resumeLines(s);
    if (lines.length === 0) {
      this.#say('error', `${s.name} has no leg left to send`);
      return false;
    }
    const unknown = unknownLegs(s);
    const yes = await this.#ask({
      title: `Send the remaining legs of ${s.name}?`,
      lines: [`One leg at a time, ${s.product}:`, ...lines],
      warnings: unknown.map(
        (l) =>
          `${legName(l)} had no answer: it is not sent again; the watcher settles it from the order book.`,
      ),
      confirmLabel: 'Send remaining',
      cancelLabel: 'Not now',
      tone: 'danger',
    });
    if (!yes) return false;
    const r = await this.#run(`resume:${s.id}`, () => this.#bridge.invoke('strategies.resume', { id: s.id }));
    if (!r) return false;
    if (!r.ok) {
      this.#say('error', `Remaining legs of ${s.name} not sent: ${errorText(r.error)}`);
      return false;
    }
    this.#replace(r.value);
    this.#say('pending', `Remaining legs of ${s.name} sent: ${lines.length}`);
    return true;
  }

  /**
   * Rolls leg `leg` to `to`: the roll dialog is the question (its preview says what goes), so this
   * sends at once.
   */
  async roll(
    s: StrategyView,
    leg: number,
    to: { symbol: string; exchange: string },
    preview: RollPreview,
  ): Promise<EditOutcome> {
    const r = await this.#run(`roll:${s.id}`, () =>
      this.#bridge.invoke('strategies.roll', {
        id: s.id,
        leg,
        to: { symbol: to.symbol, exchange: to.exchange as never },
      }),
    );
    if (!r) return { ok: false, reason: `${s.name} is being changed: try again` };
    if (!r.ok) {
      const reason = `Roll refused: ${errorText(r.error)}`;
      this.#say('error', `${s.name}: ${reason}`);
      return { ok: false, reason };
    }
    this.#replace(r.value);
    this.#say('pending', `Roll of ${legName(preview.close)} to ${legName(preview.open)} sent for ${s.name}`);
    return { ok: true };
  }

  /** Forgets a closed strategy (its trades stay in the books). */
  async remove(s: StrategyView): Promise<boolean> {
    if (s.state !== 'closed') {
      this.#say(
        'error',
        `${s.name} is ${s.state === 'exitFailed' ? 'not closed (an exit failed)' : 'not closed'}: only a closed strategy can be removed`,
      );
      return false;
    }
    const yes = await this.#ask({
      title: `Remove ${s.name}?`,
      lines: ['It leaves the Strategies book. Its orders and trades stay in the books.'],
      confirmLabel: 'Remove',
      cancelLabel: 'Keep it',
      tone: 'normal',
    });
    if (!yes) return false;
    const r = await this.#run(`remove:${s.id}`, () => this.#bridge.invoke('strategies.remove', { id: s.id }));
    if (!r) return false;
    if (!r.ok) {
      this.#say('error', `${s.name} not removed: ${errorText(r.error)}`);
      return false;
    }
    this.strategies = this.strategies.filter((x) => x.id !== s.id);
    this.#say('ok', `${s.name} removed`);
    return true;
  }
}

// The strategies state lives with the books panel (state/context.ts is the desk root's): the panel
// provides it, the Positions pane under it finds it (the narrow list has none and groups nothing).
/** The context key (a component test passes its own state under it). */
export const STRATEGIES = Symbol('strategies');

export const provideStrategies = (s: StrategiesState): StrategiesState => setContext(STRATEGIES, s);
export const findStrategies = (): StrategiesState | undefined =>
  hasContext(STRATEGIES) ? getContext<StrategiesState>(STRATEGIES) : undefined;
