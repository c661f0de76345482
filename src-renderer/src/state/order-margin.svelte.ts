// The margin of what the ticket (or the basket) would send, and the funds check before sending it: the
// gateway's figure on a gateway profile (asked after a pause, lib/margin-check says which figure
// shows), the paper leverage estimate on paper, and the available cash from the last funds read (a
// fresh read when there has been none).
import type { BasketLeg, FundsView, IpcError, PlaceOrderIpcInput } from '@contract';
import { parseDecimal, type Dec } from '@shared/decimal.js';
import {
  asksGateway,
  checkFunds,
  marginShown,
  marginWords,
  surelyFits,
  type FundsCheck,
  type ProfileKind,
} from '../lib/margin-check';
import { marginAskOf, type MarginAsker } from './margin-ask.svelte';

/** Where the funds come from: the desk's books (BooksState), when the pane has them. */
export interface FundsSource {
  readonly funds: FundsView | undefined;
  readonly fundsError: IpcError | undefined;
  loadFunds(): Promise<void>;
}

export interface OrderMarginSources {
  kind(): ProfileKind | undefined;
  /** The orders as they would be sent (none while incomplete). */
  orders(): readonly (PlaceOrderIpcInput | BasketLeg)[];
  /** The paper leverage estimate of the same orders. */
  leverage(): { margin: Dec; leverage?: number | undefined } | undefined;
  asker(): MarginAsker;
  /** An amount the margin cannot exceed (lib/margin-check's marginCeiling), where one is known. */
  ceiling?(): Dec | undefined;
  books?: FundsSource | undefined;
  /** What is being sent, for the words: "order" (default) or "basket". */
  what?: string;
}

export class OrderMargin {
  readonly #s: OrderMarginSources;
  /** The positions to ask the gateway about (a gateway profile and a complete order only). */
  readonly ask = $derived.by(() => (asksGateway(this.#s.kind()) ? marginAskOf(this.#s.orders()) : undefined));
  readonly shown = $derived.by(() =>
    marginShown({
      profileKind: this.#s.kind(),
      leverage: this.#s.leverage(),
      ...this.#s.asker().stateOf(this.ask),
      complete: this.#s.orders().length > 0,
    }),
  );
  readonly words = $derived(this.shown ? marginWords(this.shown) : undefined);
  readonly available = $derived.by(() => {
    const f = this.#s.books?.funds;
    return f ? parseDecimal(f.availableCash) : undefined;
  });

  constructor(sources: OrderMarginSources) {
    this.#s = sources;
  }

  /** Asks after the pause when the orders change (call from an effect). */
  follow(): void {
    this.#s.asker().follow(this.ask);
  }

  /** The order fits the available cash whatever its margin: no need to wait for the gateway's. */
  readonly #surelyFits = $derived.by(() => surelyFits(this.#s.ceiling?.(), this.available));

  /** The check with what is known now. */
  check(): FundsCheck {
    if (this.shown?.kind !== 'gateway' && this.#surelyFits) return { kind: 'fits' };
    return checkFunds(this.shown, this.available, this.#s.books?.fundsError?.message, this.#s.what);
  }

  /**
   * Something worth a short wait before sending: a margin answer on its way (unless the order fits
   * the cash whatever it says), or no funds read yet.
   */
  mustWait(): boolean {
    return (
      (this.ask !== undefined && this.#s.asker().pending(this.ask) && !this.#surelyFits) ||
      (!!this.#s.books && !this.#s.books.funds)
    );
  }

  /** Waits for the margin on its way (a little) and reads the funds if none were read. */
  async settle(): Promise<void> {
    const ask = this.ask;
    const books = this.#s.books;
    await Promise.all([
      ask && this.#s.asker().pending(ask) ? this.#s.asker().settle(ask) : undefined,
      books && !books.funds ? books.loadFunds() : undefined,
    ]);
  }
}
