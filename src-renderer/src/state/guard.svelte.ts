// The active profile's account guard (issue 26, docs/guard.md): its view read once through
// `guard.state`, then replaced whole by each `guard.state` event of that profile (another profile's
// are ignored, an older one too; a profile switch reads again, a link regained as well). Ending a
// lock early (`guard.unlock`, with the typed UNLOCK the core checks) and stopping a flatten's
// re-squaring (`guard.stopFlatten`, the lock stays) go through the core and answer in words.
import type { BridgeApi, GuardView } from '@contract';
import type { LinkState } from '../lib/bridge';
import { guardLine, type GuardLine } from '../lib/guard-view';

export interface GuardOptions {
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
}

export type GuardOutcome = { ok: true } | { ok: false; reason: string };

/** The word the trader types to end a lock early. */
export const UNLOCK_WORD = 'UNLOCK';

export class GuardState {
  /** The active profile's guard, as the core last sent it. */
  view = $state.raw<GuardView | undefined>();
  profileId = $state<string | undefined>();
  /** Why the guard could not be read. */
  problem = $state<string | undefined>();
  /** The action on its way, if any. */
  busy = $state<'unlock' | 'stop' | undefined>();
  /** The last action's outcome in words (under the lock banner). */
  notice = $state<string | undefined>();

  /** The status bar's line (undefined while the guard is off and nothing is locked). */
  readonly line: GuardLine | undefined = $derived(guardLine(this.view));
  readonly lock = $derived(this.view?.lock ?? null);

  readonly #bridge: BridgeApi;
  readonly #options: GuardOptions;
  #seq = 0;
  /** Bumped by each event applied: a read that started before one lands stale and is dropped. */
  #generation = 0;

  constructor(bridge: BridgeApi, options: GuardOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
  }

  start(): () => void {
    const offs = [
      this.#bridge.on('guard.state', (e) => {
        if (e.seq <= this.#seq) return;
        // Another profile's guard (a switch in flight) is not this desk's.
        if (this.profileId !== undefined && e.profileId !== this.profileId) return;
        this.#seq = e.seq;
        this.#generation += 1;
        const { seq: _seq, ...view } = e;
        this.#set(view);
      }),
      this.#bridge.on('profiles.switched', (e) => {
        if (e.profileId === this.profileId) return;
        this.profileId = e.profileId;
        this.view = undefined;
        this.notice = undefined;
        void this.reload();
      }),
    ];
    let lost = false;
    const offLink =
      this.#options.onLinkChange?.((state) => {
        if (state === 'lost') lost = true;
        else if (lost) {
          lost = false;
          void this.reload();
        }
      }) ?? (() => undefined);
    void this.reload();
    return () => {
      offLink();
      for (const off of offs) off();
    };
  }

  /** Reads the guard now; an event that lands meanwhile is newer and wins. */
  async reload(): Promise<void> {
    const generation = this.#generation;
    const r = await this.#bridge.invoke('guard.state');
    if (!r.ok) {
      this.problem = `Account guard: ${r.error.message}`;
      return;
    }
    this.problem = undefined;
    if (generation !== this.#generation) return;
    // A switch made while the read was out: its own read answers for the new profile.
    if (this.profileId !== undefined && r.value.profileId !== this.profileId) return;
    this.#set(r.value);
  }

  #set(view: GuardView): void {
    this.profileId = view.profileId;
    // A lock that ended takes its last outcome with it.
    if (!view.lock) this.notice = undefined;
    this.view = view;
  }

  /** Ends the lock early: `typed` must be UNLOCK exactly (the core checks it again); journalled. */
  async unlock(typed: string): Promise<GuardOutcome> {
    if (typed !== UNLOCK_WORD) return { ok: false, reason: `Type ${UNLOCK_WORD} to end the lock early` };
    if (this.busy) return { ok: false, reason: 'Still busy with the last action' };
    this.busy = 'unlock';
    try {
      const r = await this.#bridge.invoke('guard.unlock', { confirm: UNLOCK_WORD });
      if (!r.ok) return { ok: false, reason: `Not unlocked: ${r.error.message}` };
      this.#generation += 1;
      this.#set(r.value);
      this.notice = undefined;
      return { ok: true };
    } finally {
      this.busy = undefined;
    }
  }

  /** Stops the flatten's re-squaring; the lock stays. Says how it went under the banner. */
  async stopFlatten(): Promise<GuardOutcome> {
    if (this.busy) return { ok: false, reason: 'Still busy with the last action' };
    this.busy = 'stop';
    try {
      const r = await this.#bridge.invoke('guard.stopFlatten');
      if (!r.ok) {
        this.notice = `Re-squaring not stopped: ${r.error.message}`;
        return { ok: false, reason: this.notice };
      }
      this.#generation += 1;
      this.#set(r.value);
      this.notice = 'Re-squaring stopped: the lock stays until it ends';
      return { ok: true };
    } finally {
      this.busy = undefined;
    }
  }
}
