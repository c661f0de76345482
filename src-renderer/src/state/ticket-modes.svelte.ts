// Which kind of order the ticket sends (Regular, Smart, Split, Basket, GTT) and each mode's own state. The
// mode is remembered for the browser session (sessionStorage: a reload keeps it, a new window starts
// Regular), so a trader who works in baskets is not sent back to Regular by every reload.
import type { BridgeApi } from '@contract';
import { BasketState } from './basket.svelte';
import { SmartOrderState } from './smart-order.svelte';
import { SplitOrderState } from './split-order.svelte';

export type TicketMode = 'regular' | 'smart' | 'split' | 'basket' | 'gtt';

export const TICKET_MODE_LIST: readonly { value: TicketMode; label: string; title: string }[] = [
  { value: 'regular', label: 'Regular', title: 'One order as typed' },
  { value: 'smart', label: 'Smart', title: 'Smart: trade to a target position' },
  { value: 'split', label: 'Split', title: 'Split: one quantity as several child orders' },
  { value: 'basket', label: 'Basket', title: 'Basket: several orders sent together' },
  { value: 'gtt', label: 'GTT', title: 'GTT: an order placed when the price reaches a trigger (CNC/NRML)' },
];

export const MODE_STORAGE_KEY = 'orderdesk.ticketMode';

type ModeStorage = Pick<Storage, 'getItem' | 'setItem'>;

function isMode(v: unknown): v is TicketMode {
  return TICKET_MODE_LIST.some((m) => m.value === v);
}

function sessionStore(): ModeStorage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // A sandboxed page may refuse storage: the mode is then kept for this page only.
    return undefined;
  }
}

export class TicketModes {
  mode = $state<TicketMode>('regular');
  readonly smart: SmartOrderState;
  readonly split: SplitOrderState;
  readonly basket: BasketState;
  readonly #storage: ModeStorage | undefined;

  constructor(bridge: BridgeApi, storage: ModeStorage | undefined = sessionStore()) {
    this.smart = new SmartOrderState(bridge);
    this.split = new SplitOrderState(bridge);
    this.basket = new BasketState(bridge);
    this.#storage = storage;
    let stored: unknown;
    try {
      stored = storage?.getItem(MODE_STORAGE_KEY);
    } catch {
      stored = undefined;
    }
    if (isMode(stored)) this.mode = stored;
  }

  set(mode: TicketMode): void {
    this.mode = mode;
    try {
      this.#storage?.setItem(MODE_STORAGE_KEY, mode);
    } catch {
      // Not remembered past this page; the switch itself still applies.
    }
  }
}
