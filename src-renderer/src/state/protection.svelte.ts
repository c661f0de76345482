// The active profile's brackets (issue 25, docs/protection.md): read once through
// `protection.brackets`, then replaced whole by each `protection.brackets` event of that profile
// (another profile's are ignored; a profile switch reads again). The actions on them go through the
// core's channels and answer in words: move a stop or target (`protection.modify`), remove the
// protection (`protection.remove`, the position stays), place a refused leg again
// (`protection.retry`) and flatten (`protection.flatten`, asked first, never sent by itself). A
// bracket turning unprotected or overshooting plays the desk's chime once.
import type { BracketView, BridgeApi, IpcError } from '@contract';
import { SvelteSet } from 'svelte/reactivity';
import { formatPrice, formatQty } from '@shared/format.js';
import type { LinkState } from '../lib/bridge';
import { followView, type Follower } from '../lib/followed-view';
import { displayName } from '../lib/instrument';
import {
  bracketsByPosition,
  checkLevel,
  overshootBy,
  protectionKey,
  protectionOf,
  type LegSide,
  type PositionProtection,
  type PositionRef,
} from '../lib/protection-view';
import type { ConfirmState } from './confirm.svelte';

export interface ProtectionNotice {
  tone: 'ok' | 'error' | 'pending';
  text: string;
  at: number;
}

export interface ProtectionOptions {
  /** The desk's one confirmation dialog: a flatten asks there first. */
  confirm?: ConfirmState;
  /** Played once per bracket that turns unprotected or overshoots (the desk's alert chime). */
  chime?: () => void;
  /** Whether settings ask before a cancel: removing a protection cancels its legs. */
  asks?: (action: 'cancel') => boolean;
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
  now?: () => number;
}

export type ModifyOutcome = { ok: true; brackets: BracketView[] } | { ok: false; reason: string };

const errorText = (e: IpcError): string => e.message;

/** What a flatten of `b` sends: the side and quantity of its closing MARKET order. */
export function flattenOrder(b: BracketView): { action: 'BUY' | 'SELL'; quantity: number } | undefined {
  if (b.open === 0) return undefined;
  const closing = b.action === 'BUY' ? 'SELL' : 'BUY';
  // open > 0: the entry's remainder is closed; open < 0 (overshoot): the excess is bought/sold back.
  return b.open > 0 ? { action: closing, quantity: b.open } : { action: b.action, quantity: -b.open };
}

export class ProtectionState {
  /** The active profile's brackets, as the core last sent them. */
  brackets = $state.raw<BracketView[]>([]);
  profileId = $state<string | undefined>();
  /** True once the first read answered. */
  loaded = $state(false);
  /** Why the brackets could not be read. */
  problem = $state<string | undefined>();
  /** The last action's outcome in words (shown under the Positions bar). */
  notice = $state.raw<ProtectionNotice | undefined>();
  /** `op:entry` of each action on its way. */
  readonly busy = new SvelteSet<string>();

  readonly byPosition: Map<string, BracketView[]> = $derived(bracketsByPosition(this.brackets));
  /** Brackets with a hazard the trader must see (unprotected, overshoot), oldest first. */
  readonly hazards: BracketView[] = $derived(
    this.brackets.filter((b) => b.state === 'unprotected' || b.state === 'overshoot'),
  );

  readonly #bridge: BridgeApi;
  readonly #options: ProtectionOptions;
  readonly #follow: Follower<'protection.brackets'>;
  /** `entry:state` of the hazards already chimed for (bookkeeping the page never renders). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #chimed = new Set<string>();

  constructor(bridge: BridgeApi, options: ProtectionOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
    this.#follow = followView({
      bridge,
      name: 'protection.brackets',
      ...(options.onLinkChange ? { onLinkChange: options.onLinkChange } : {}),
      profileId: () => this.profileId,
      apply: (v) => this.#set(v.profileId, v.brackets),
      switched: (profileId) => {
        this.profileId = profileId;
        this.brackets = [];
        this.notice = undefined;
        this.#chimed.clear();
      },
      failed: (error) => {
        this.problem = error ? `Protection: ${errorText(error)}` : undefined;
        if (!error) this.loaded = true;
      },
    });
  }

  start(): () => void {
    return this.#follow.start();
  }

  /** Reads the brackets now; an event that lands meanwhile is newer and wins. */
  reload(): Promise<void> {
    return this.#follow.reload();
  }

  #set(profileId: string, brackets: BracketView[]): void {
    this.profileId = profileId;
    this.brackets = brackets;
    let chime = false;
    for (const b of brackets) {
      if (b.state !== 'unprotected' && b.state !== 'overshoot') continue;
      const key = `${b.entry}:${b.state}`;
      if (this.#chimed.has(key)) continue;
      this.#chimed.add(key);
      chime = true;
    }
    if (chime) this.#options.chime?.();
  }

  /** One bracket as the core answered it, in place until the next event. */
  #replace(b: BracketView): void {
    this.brackets = this.brackets.map((x) => (x.entry === b.entry ? b : x));
  }

  /** A position's protection (row cells), or undefined. */
  of(p: PositionRef): PositionProtection | undefined {
    return protectionOf(this.byPosition.get(protectionKey(p)));
  }

  /** The open brackets on an instrument, whatever their product (the chart). */
  onInstrument(symbol: string, exchange: string): BracketView[] {
    const ex = exchange.toUpperCase();
    return this.brackets.filter(
      (b) => b.state !== 'closed' && b.symbol === symbol && b.exchange.toUpperCase() === ex,
    );
  }

  #say(tone: ProtectionNotice['tone'], text: string): void {
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

  /**
   * Moves the `side` leg of each bracket in `list` that has one to `text` (checked on the tick and
   * against `ltp` first); says what moved, or answers why not. Several brackets on a position move together.
   */
  async modify(
    list: readonly BracketView[],
    side: LegSide,
    text: string | number,
    ltp?: number | null,
  ): Promise<ModifyOutcome> {
    const targets = list.filter(
      (b) => b[side] && b[side].state !== 'filled' && b[side].state !== 'cancelled',
    );
    const first = targets[0];
    // A refusal is the caller's to show (next to the edited box, or by the dragged line).
    if (!first) return { ok: false, reason: `No ${side} to move on this position` };
    const check = checkLevel(side, text, first, ltp);
    if (!check.ok) return check;
    const done: BracketView[] = [];
    for (const b of targets) {
      const r = await this.#run(`modify:${b.entry}`, () =>
        this.#bridge.invoke(
          'protection.modify',
          side === 'stop' ? { entry: b.entry, stop: check.price } : { entry: b.entry, target: check.price },
        ),
      );
      if (!r) continue;
      if (!r.ok) {
        const reason = `${side === 'stop' ? 'Stop' : 'Target'} not moved: ${errorText(r.error)}`;
        return {
          ok: false,
          reason: done.length ? `${reason} (${done.length} of ${targets.length} moved)` : reason,
        };
      }
      this.#replace(r.value);
      done.push(r.value);
    }
    const what = `${side === 'stop' ? 'Stop' : 'Target'} of ${displayName(first.symbol)} ${first.product}`;
    this.#say(
      'ok',
      `${what} moved to ${formatPrice(check.price, first.tick)}${done.length > 1 ? ` (${done.length} brackets)` : ''}`,
    );
    return { ok: true, brackets: done };
  }

  /** Cancels the legs of every bracket in `list`; the position stays. Asks first when cancels do. */
  async remove(list: readonly BracketView[]): Promise<boolean> {
    const first = list[0];
    if (!first) return false;
    const name = `${displayName(first.symbol)} ${first.product}`;
    if (this.#options.confirm && (this.#options.asks?.('cancel') ?? true)) {
      const yes = await this.#options.confirm.ask({
        title: 'Remove protection?',
        lines: [
          `Cancels the stop and target of ${name}${list.length > 1 ? ` (${list.length} brackets)` : ''}.`,
          'The position stays open, with no stop.',
        ],
        confirmLabel: 'Remove protection',
        cancelLabel: 'Keep protection',
      });
      if (!yes) return false;
    }
    let removed = 0;
    for (const b of list) {
      const r = await this.#run(`remove:${b.entry}`, () =>
        this.#bridge.invoke('protection.remove', { entry: b.entry }),
      );
      if (!r) continue;
      if (!r.ok) {
        this.#say('error', `Protection of ${name} not removed: ${errorText(r.error)}`);
        return false;
      }
      this.#replace(r.value);
      removed += 1;
    }
    this.#say('ok', `Protection removed from ${name}: its legs are cancelled, the position stays open`);
    return removed > 0;
  }

  /** Places the refused leg of `b` again, once. */
  async retry(b: BracketView): Promise<boolean> {
    const r = await this.#run(`retry:${b.entry}`, () =>
      this.#bridge.invoke('protection.retry', { entry: b.entry }),
    );
    if (!r) return false;
    if (!r.ok) {
      this.#say('error', `Retry refused: ${errorText(r.error)}`);
      return false;
    }
    this.#replace(r.value);
    const leg = b.stop?.state === 'refused' ? 'stop' : 'target';
    this.#say('pending', `The ${leg} of ${displayName(b.symbol)} ${b.product} is placed again`);
    return true;
  }

  /**
   * Closes what `list` holds open at MARKET through each bracket (its legs cancelled first), after a
   * yes that says exactly what goes. Never called without the trader asking.
   */
  async flatten(list: readonly BracketView[]): Promise<boolean> {
    const orders = list.flatMap((b) => {
      const o = flattenOrder(b);
      return o ? [{ b, ...o }] : [];
    });
    const first = orders[0];
    if (!first) {
      this.#say('error', 'Nothing open to flatten on this position');
      return false;
    }
    const name = `${displayName(first.b.symbol)} ${first.b.product}`;
    const lines = orders.map(
      (o) =>
        `${o.action === 'SELL' ? 'Sell' : 'Buy'} ${formatQty(o.quantity)} ${name} at MARKET` +
        (o.b.open < 0 ? ` (went past flat by ${formatQty(overshootBy(o.b))})` : ''),
    );
    const yes = this.#options.confirm
      ? await this.#options.confirm.ask({
          title: 'Flatten the position?',
          lines: ['Cancels the stop and target first, then:', ...lines],
          confirmLabel:
            orders.length === 1 ? `${first.action === 'SELL' ? 'Sell' : 'Buy'} to flatten` : 'Flatten',
          cancelLabel: 'Keep position',
          tone: 'danger',
        })
      : false;
    if (!yes) return false;
    const sent: string[] = [];
    for (const o of orders) {
      const r = await this.#run(`flatten:${o.b.entry}`, () =>
        this.#bridge.invoke('protection.flatten', { entry: o.b.entry }),
      );
      if (!r) continue;
      if (!r.ok) {
        this.#say('error', `Flatten of ${name} refused: ${errorText(r.error)}`);
        return false;
      }
      sent.push(`${r.value.action} ${formatQty(r.value.quantity)} (order ${r.value.orderid})`);
    }
    this.#say('ok', `Flatten sent for ${name}: ${sent.join(', ')}`);
    return sent.length > 0;
  }
}
