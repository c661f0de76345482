// One market subscription that can be pointed elsewhere (the watchlist's tab, the ticket's instrument,
// the focused depth): the new watch is taken before the old one is dropped, so ticks never pause, and
// an answer that arrives after a later retarget is unwatched at once instead of leaking. A watch
// refused because the gateway could not be had (down, slow, the paper account unavailable until it is
// reset) is asked again: at once when the connection turns connected or the profile changes, and on a
// back-off of at most 30 s meanwhile (the connect may have come before the refusal). A refusal of the
// input itself is not. One ask at a time, so a watch never counts twice against the core's cap.
import type { BridgeApi, IpcErrorKind, MarketWatchInput } from '@contract';
import { GATEWAY_DOWN, KEY_REFUSED } from '../lib/market-problem';

/** The wait before the n-th ask again (n ≥ 1): 1 s, doubling, at most 30 s. */
export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 30_000;
export const retryDelayMs = (n: number) => Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (n - 1));

export class WatchSlot {
  /** Why the last watch was refused (shown next to what it was for). */
  error = $state<string | undefined>();
  /** The kind of the last refusal (a gateway or key one is the banner's word, not the pane's). */
  errorKind = $state<IpcErrorKind | undefined>();
  /** Instruments the gateway did not know (`market.watch`'s rejected), as `EXCHANGE:SYMBOL`. */
  rejected = $state.raw<string[]>([]);

  readonly #bridge: BridgeApi;
  #id: string | undefined;
  #target: string | undefined;
  /** The target's last ask was refused: asking for it again is not a no-op. */
  #refused = false;
  #seq = 0;
  /** What asks a refused watch again (event listeners, the back-off timer), while it is armed. */
  #wake: { offs: (() => void)[]; timer: ReturnType<typeof setTimeout> | undefined } | undefined;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /** The subscription's id while one is held (tests and diagnostics). */
  get id(): string | undefined {
    return this.#id;
  }

  /** Points the slot at `input` (undefined: nothing); the same target again is a no-op unless refused. */
  set(input: MarketWatchInput | undefined): Promise<void> {
    return this.#point(input, 0);
  }

  /** `failures`: refusals in a row of this target so far (the back-off's step). */
  async #point(input: MarketWatchInput | undefined, failures: number): Promise<void> {
    const target = input ? JSON.stringify(input) : undefined;
    if (target === this.#target && !this.#refused) return;
    this.#target = target;
    this.#refused = false;
    this.#disarm();
    const seq = ++this.#seq;
    const old = this.#id;
    this.#id = undefined;
    if (input) {
      const res = await this.#bridge.invoke('market.watch', input);
      if (!res.ok) {
        if (seq === this.#seq) {
          this.error = res.error.message;
          this.errorKind = res.error.kind;
          this.rejected = [];
          this.#refused = true;
          this.#arm(input, res.error.kind, failures + 1);
        }
      } else if (seq !== this.#seq) {
        // A later set() won: this answer's subscription is nobody's.
        void this.#unwatch(res.value.id);
      } else {
        this.#id = res.value.id;
        this.error = undefined;
        this.errorKind = undefined;
        this.rejected = res.value.rejected.map((r) => `${r.exchange}:${r.symbol}`);
      }
    } else if (seq === this.#seq) {
      this.error = undefined;
      this.errorKind = undefined;
      this.rejected = [];
    }
    if (old) await this.#unwatch(old);
  }

  /** After the `failures`-th refusal in a row: what asks `input` again, by the refusal's kind. */
  #arm(input: MarketWatchInput, kind: IpcErrorKind, failures: number): void {
    const down = GATEWAY_DOWN.has(kind);
    if (!down && !KEY_REFUSED.has(kind)) return;
    const again = () => void this.#point(input, failures);
    const b = this.#bridge;
    this.#wake = {
      offs: [
        b.on('session.connection', (e) => {
          if (e.state === 'connected') again();
        }),
        // Another gateway (or the same one reopened) may well answer.
        b.on('profiles.switched', again),
      ],
      timer: down ? setTimeout(again, retryDelayMs(failures)) : undefined,
    };
  }

  #disarm(): void {
    const w = this.#wake;
    if (!w) return;
    this.#wake = undefined;
    for (const off of w.offs) off();
    if (w.timer !== undefined) clearTimeout(w.timer);
  }

  async #unwatch(id: string): Promise<void> {
    const res = await this.#bridge.invoke('market.unwatch', { id });
    // An unknown id (the host restarted) is already gone; anything else is worth saying.
    if (!res.ok && res.error.kind !== 'not_found')
      this.error = `Could not stop a watch: ${res.error.message}`;
  }
}
