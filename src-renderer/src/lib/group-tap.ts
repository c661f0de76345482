// Every split and basket the desk sends goes through one bridge; this wrapper hands the orders each
// one placed (the gateway's answer) to a listener, so the alert list shows one grouped alert per
// send whichever pane sent it. Nothing else about the call changes.
import type { BridgeApi, ChannelInput, ChannelOutput } from '@contract';
import { basketGroupTitle, splitGroupTitle } from '@shared/alert-group-title.js';
import { displayName } from './instrument';

/** The orders one send placed. */
export interface AlertGroup {
  /** Unique per send (the tap numbers them). */
  id: string;
  /** What was sent: `Split BUY 105 NIFTY…`, `Basket of 3 legs`. */
  title: string;
  /** The orders it placed, in the gateway's order. */
  orderids: readonly string[];
}

const ids = (rows: readonly { orderid?: string | undefined }[]): string[] =>
  rows.flatMap((r) => (r.orderid ? [r.orderid] : []));

/** The group a split's answer names: `Split BUY 105 NIFTY 25 NOV FUT` and its children's ids. */
export function splitGroup(
  id: string,
  input: ChannelInput<'orders.split'>,
  answer: ChannelOutput<'orders.split'>,
): AlertGroup {
  const title = splitGroupTitle(input.action, Number(input.quantity), displayName(input.symbol));
  return { id, title, orderids: ids(answer.results) };
}

/** The group a basket's answer names: `Basket of 3 legs` and its legs' ids. */
export function basketGroup(
  id: string,
  input: ChannelInput<'orders.basket'>,
  answer: ChannelOutput<'orders.basket'>,
): AlertGroup {
  return { id, title: basketGroupTitle(input.orders.length), orderids: ids(answer.results) };
}

export function tapGroups(bridge: BridgeApi, onGroup: (g: AlertGroup) => void): BridgeApi {
  let n = 0;
  return {
    on: (event, cb) => bridge.on(event, cb),
    async invoke(channel, input) {
      const r = await bridge.invoke(channel, input);
      if (!r.ok) return r;
      let group: AlertGroup | undefined;
      if (channel === 'orders.split')
        group = splitGroup(
          `split-${++n}`,
          input as ChannelInput<'orders.split'>,
          r.value as ChannelOutput<'orders.split'>,
        );
      else if (channel === 'orders.basket')
        group = basketGroup(
          `basket-${++n}`,
          input as ChannelInput<'orders.basket'>,
          r.value as ChannelOutput<'orders.basket'>,
        );
      // One order is no group: its alert stays its own.
      if (group && group.orderids.length > 1) onGroup(group);
      return r;
    },
  };
}
