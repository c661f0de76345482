// A send the core holds back (the duplicate guard, or the hold on an identical order in doubt) and the
// trader's deliberate "Send anyway": what the ticket's hold tests share.
import { fireEvent, screen } from '@testing-library/svelte';
import type { Channel, IpcError } from '@contract';
import type { TicketModes } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { settle } from './desk-fixture';
import type { FakeBridge } from './fake-bridge';

/** The `confirmDuplicate` of every call to `channel`, in order (undefined where it was not set). */
export function confirmFlags(bridge: FakeBridge, channel: Channel): (boolean | undefined)[] {
  return bridge
    .callsTo(channel)
    .map((c) => (c.input as { confirmDuplicate?: boolean } | undefined)?.confirmDuplicate);
}

/**
 * A basket of one SBIN leg sent from its button (Enter on it): the first send is held back with
 * `held`, any later one is placed as `orderid`. Returns the send button.
 */
export async function sendHeldBasket(
  f: { bridge: FakeBridge; modes: TicketModes },
  held: IpcError,
  orderid: string,
): Promise<HTMLElement> {
  f.modes.basket.pasteText = 'SBIN NSE BUY 3';
  f.modes.basket.addPasted();
  await settle();
  let calls = 0;
  f.bridge.answer('orders.basket', () =>
    ++calls === 1
      ? { ok: false, error: held }
      : { ok: true, value: { status: 'success', results: [{ symbol: 'SBIN', status: 'success', orderid }] } },
  );
  const send = screen.getByRole('button', { name: /Send basket: 1 order/ });
  send.focus();
  await fireEvent.keyDown(send, { key: 'Enter' });
  await settle();
  return send;
}
