// Whether to ask before each kind of order action (settings.confirmations: place, modify, cancel), as
// NEST's per-action order prompts. Until settings are read every action asks: the safe side.
import type { BridgeApi, OrderConfirmations } from '@contract';

export type ConfirmAction = keyof OrderConfirmations;

export const CONFIRM_LABELS: Readonly<Record<ConfirmAction, string>> = {
  place: 'New order',
  modify: 'Modify',
  cancel: 'Cancel',
};

export class ConfirmationsState {
  values = $state<OrderConfirmations>({ place: true, modify: true, cancel: true });
  /** Why the toggles could not be read or the last change saved. */
  problem = $state<string | undefined>();

  readonly #bridge: BridgeApi;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /**
   * Follows changes saved anywhere (another window, the shell, the bench): the core's settings.changed
   * carries the settings as saved. Returns the stop.
   */
  start(): () => void {
    const off = this.#bridge.on('settings.changed', (e) => {
      // Only newer news: a change that lands after a later one must not put the older toggles back.
      if (e.seq <= this.#seq) return;
      this.#seq = e.seq;
      this.values = e.settings.confirmations;
      this.problem = undefined;
    });
    void this.load();
    return off;
  }

  #seq = 0;

  async load(): Promise<void> {
    const res = await this.#bridge.invoke('settings.get');
    if (res.ok) {
      this.values = res.value.confirmations;
      this.problem = undefined;
    } else this.problem = `Confirmation settings could not be read (${res.error.message}); every action asks`;
  }

  asks(action: ConfirmAction): boolean {
    return this.values[action];
  }

  /** Turns one prompt on or off and saves it; a refused save puts the old value back and says why. */
  async set(action: ConfirmAction, on: boolean): Promise<boolean> {
    const before = this.values[action];
    this.values[action] = on;
    const res = await this.#bridge.invoke('settings.update', { confirmations: { [action]: on } });
    if (res.ok) {
      this.values = res.value.confirmations;
      this.problem = undefined;
      return true;
    }
    this.values[action] = before;
    this.problem = `Not saved: ${res.error.message}`;
    return false;
  }
}
