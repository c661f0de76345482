// The gateway's margin for an order or a basket (`orders.margin`), asked after a pause in typing: the
// same order asked once (a new last price alone asks nothing), a later ask wins, and an answer is
// used only for exactly the positions it answers. Before a send the answer still on its way is waited
// for, a little, so a quick Enter after typing is still checked against the funds.
import type { BasketLeg, BridgeApi, MarginEstimate, MarginIpcInput, PlaceOrderIpcInput } from '@contract';
import { untrack } from 'svelte';
import { DebouncedPreview } from './debounced-preview.svelte';

/** The pause after the last edit before the gateway is asked. */
export const MARGIN_ASK_DELAY_MS = 300;
/** At a send, how long an answer on its way is waited for before the order goes unchecked (said). */
export const MARGIN_WAIT_AT_SEND_MS = 1500;
/** The gateway prices at most this many positions in one ask. */
const MAX_POSITIONS = 50;

// DebouncedPreview strips a duplicate confirmation from its requests; a margin ask carries none.
type MarginAsk = MarginIpcInput & { confirmDuplicate?: undefined };

/** The margin ask for one order or a basket's legs; undefined for none, or more than the gateway takes. */
export function marginAskOf(orders: readonly (PlaceOrderIpcInput | BasketLeg)[]): MarginIpcInput | undefined {
  if (orders.length === 0 || orders.length > MAX_POSITIONS) return undefined;
  return {
    positions: orders.map((o) => ({
      symbol: o.symbol,
      exchange: o.exchange,
      action: o.action,
      quantity: o.quantity,
      product: o.product,
      pricetype: o.pricetype,
      price: o.price,
      trigger_price: o.trigger_price,
    })),
  };
}

/** What is known of the margin of one ask (lib/margin-check's inputs). */
export interface MarginState {
  answer: MarginEstimate | undefined;
  asking: boolean;
  problem: string | undefined;
  complete: boolean;
}

export class MarginAsker {
  readonly #preview: DebouncedPreview<MarginAsk, MarginEstimate>;
  /** The positions last followed (asked, or about to be). */
  #followed = $state<string | undefined>();

  constructor(bridge: BridgeApi, delayMs = MARGIN_ASK_DELAY_MS) {
    this.#preview = new DebouncedPreview<MarginAsk, MarginEstimate>(
      (input) => bridge.invoke('orders.margin', input),
      delayMs,
    );
  }

  /** Asks after the pause for these positions (nothing for undefined); the same positions ask once. */
  follow(ask: MarginIpcInput | undefined): void {
    const key = ask ? JSON.stringify(ask) : undefined;
    // Called from an effect: what was followed before is not one of its dependencies.
    untrack(() => {
      if (key === this.#followed) return;
      this.#followed = key;
      this.#preview.schedule(ask, undefined);
    });
  }

  /** The answer, the wait or the failure for exactly these positions. */
  stateOf(ask: MarginIpcInput | undefined): MarginState {
    const p = this.#preview;
    if (ask === undefined) return { answer: undefined, asking: false, problem: undefined, complete: false };
    const answer = p.of(ask);
    // Positions not followed yet (the edit's effect has not run): they will be asked.
    const followed = JSON.stringify(ask) === this.#followed;
    return {
      answer,
      asking: answer === undefined && (!followed || p.previewing),
      problem: answer === undefined && followed ? p.previewProblem : undefined,
      complete: true,
    };
  }

  /** True while no answer for these positions has come and one may still come. */
  pending(ask: MarginIpcInput | undefined): boolean {
    return this.stateOf(ask).asking;
  }

  /** Asks now (not after the pause) and waits for the answer at most `waitMs`. */
  async settle(ask: MarginIpcInput, waitMs = MARGIN_WAIT_AT_SEND_MS): Promise<void> {
    if (this.#preview.of(ask) !== undefined) return;
    this.#followed = JSON.stringify(ask);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, waitMs)));
    await Promise.race([this.#preview.refresh(ask).then(() => undefined), late]);
    clearTimeout(timer);
  }

  stop(): void {
    this.#preview.stop();
    this.#followed = undefined;
  }
}
