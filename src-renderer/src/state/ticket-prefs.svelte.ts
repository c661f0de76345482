// The ticket's remembered order type and product per segment (settings.ticketDefaults): read with the
// ticket's settings, followed through settings.changed, and saved when the trader picks another order
// type or product for a symbol of that segment. Until settings are read nothing is saved, so a fresh
// ticket's fallback never overwrites what the trader chose before.
import type { BridgeApi, TicketDefaults } from '@contract';
import { defaultsFor, segmentOf, type TicketChoice } from '../lib/ticket-defaults';

export class TicketPrefs {
  saved = $state.raw<TicketDefaults>({});
  /** Settings were read: the saved defaults are known. */
  loaded = $state(false);
  /** Why the last choice could not be saved. */
  problem = $state<string | undefined>();
  readonly #bridge: BridgeApi;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /** The defaults as settings hold them (settings.get, settings.changed). */
  apply(saved: TicketDefaults | undefined): void {
    this.saved = saved ?? {};
    this.loaded = true;
  }

  defaultsFor(exchange: string): TicketChoice {
    return defaultsFor(exchange, this.saved);
  }

  /** Saves `choice` as the segment's defaults when it differs from what a new symbol loads with. */
  async remember(exchange: string, choice: TicketChoice): Promise<void> {
    const segment = segmentOf(exchange);
    if (!segment || !this.loaded) return;
    const now = this.defaultsFor(exchange);
    if (now.priceType === choice.priceType && now.product === choice.product) return;
    const next = { priceType: choice.priceType, product: choice.product };
    this.saved = { ...this.saved, [segment]: next };
    const res = await this.#bridge.invoke('settings.update', { ticketDefaults: { [segment]: next } });
    this.problem = res.ok ? undefined : `Ticket defaults not saved: ${res.error.message}`;
  }
}
