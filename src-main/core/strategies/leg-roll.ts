// A leg rolled to another contract: its open quantity closed and the same side and quantity opened
// in `to`, as two MARKET orders through `orders.place`, the BUY of the two first (a long leg's new
// contract, a short leg's buy-back). A first order that does not go stops the second. The old leg
// reads `closed` once its trades show it flat; the new leg is appended (kept when its order may
// have gone, so the book can tell).
import type { StoredStrategy, StoredStrategyLeg } from '../../contract/index.js';
import { legOutcome, markLeg, tagOf, type LegSendPorts } from './leg-sends.js';

/** A roll's order: MARKET, sent as asked (never held as a second press). */
function rollInput(
  s: StoredStrategy,
  l: Pick<StoredStrategyLeg, 'symbol' | 'exchange' | 'action' | 'quantity'>,
) {
  return {
    symbol: l.symbol,
    exchange: l.exchange,
    action: l.action,
    quantity: l.quantity,
    pricetype: 'MARKET',
    price: 0,
    product: s.product,
    strategy: tagOf(s),
    confirmDuplicate: true,
  };
}

/** Sends the roll of `s.legs[index]` (signed `open` units) to `to`; why it stopped, if it did. */
export async function sendRoll(
  p: LegSendPorts,
  s: StoredStrategy,
  index: number,
  to: { symbol: string; exchange: string },
  open: number,
): Promise<string | undefined> {
  const leg = s.legs[index]!;
  const quantity = Math.abs(open);
  const side = open > 0 ? ('BUY' as const) : ('SELL' as const);
  const fresh: StoredStrategyLeg = {
    ...to,
    action: side,
    quantity,
    lotSize: leg.lotSize,
    pricetype: 'MARKET',
    price: 0,
    state: 'waiting',
    orderids: [],
  };
  const close = { ...leg, action: side === 'BUY' ? ('SELL' as const) : ('BUY' as const), quantity };
  const steps = side === 'BUY' ? (['open', 'close'] as const) : (['close', 'open'] as const);
  s.legs.push(fresh);
  const unsent = () => s.legs.splice(s.legs.indexOf(fresh), 1);
  for (const [n, step] of steps.entries()) {
    const rest = n === 0 ? '; nothing else was sent' : '';
    if (step === 'open') {
      fresh.state = 'sending';
      await p.save();
      const o = legOutcome(await p.invoke('orders.place', rollInput(s, fresh)));
      markLeg(fresh, o);
      if (o.ok) continue;
      // Refused first: nothing of the roll exists. Otherwise the leg stays for resume or the book.
      if (n === 0 && o.outcome === 'refused') unsent();
      else s.state = 'partial';
      return `the roll's ${side} ${fresh.symbol} was ${o.outcome}: ${o.message}${rest}`;
    }
    leg.rolled = true;
    leg.closing = open;
    await p.save();
    const o = legOutcome(await p.invoke('orders.place', rollInput(s, close)));
    delete leg.closing;
    if (o.ok) {
      leg.orderids.push(o.orderid);
      continue;
    }
    if (o.outcome === 'refused') delete leg.rolled;
    if (o.journalId !== undefined) leg.journalId = o.journalId;
    leg.reason = `its roll's close was ${o.outcome}: ${o.message}`;
    if (n === 0) unsent();
    return `the roll's close (${close.action} ${close.symbol}) was ${o.outcome}: ${o.message}${rest}`;
  }
  return undefined;
}
