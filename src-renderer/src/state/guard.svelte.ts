// The active profile's account guard (issue 26, docs/guard.md): its view read once through
// `guard.state`, then replaced whole by each `guard.state` event of that profile (another profile's
// are ignored, an older one too; a profile switch reads again, a link regained as well). Ending a
// lock early (`guard.unlock`, with the typed UNLOCK the core checks) and stopping a flatten's
// re-squaring (`guard.stopFlatten`, the lock stays) go through the core and answer in words.
import type { BridgeApi, GuardView } from '@contract';
import type { LinkState } from '../lib/bridge';
import { followView, type Follower } from '../lib/followed-view';
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
  readonly #follow: Follower<'guard.state'>;

  constructor(bridge: BridgeApi, options: GuardOptions = {}) {
    this.#bridge = bridge;
    this.#follow = followView({
      bridge,
      name: 'guard.state',
      ...(options.onLinkChange ? { onLinkChange: options.onLinkChange } : {}),
      profileId: () => this.profileId,
      apply: (view) => this.#set(view),
      switched: (profileId) => {
        this.profileId = profileId;
        this.view = undefined;
        this.notice = undefined;
      },
      failed: (error) => {
        this.problem = error ? `Account guard: ${error.message}` : undefined;
      },
    });
  }

  start(): () => void {
    return this.#follow.start();
  }

  /** Reads the guard now; an event that lands meanwhile is newer and wins. */
  reload(): Promise<void> {
    return this.#follow.reload();
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
      this.#follow.answered(r.value);
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
      this.#follow.answered(r.value);
      this.notice = 'Re-squaring stopped: the lock stays until it ends';
      return { ok: true };
    } finally {
      this.busy = undefined;
    }
  }
}
