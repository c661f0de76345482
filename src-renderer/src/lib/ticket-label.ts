// What the ticket's send button says it will do, in the trader's words: `Buy 10 SBIN @ MKT`,
// `Sell 2 lots (130) NIFTY 25 NOV FUT @ 24,010.50`, `Buy 10 SBIN @ 905.30 trg 905.00`.
import type { Action, PriceType } from '@contract';
import { formatPriceExact, formatQty } from '@shared/format.js';
import type { QuantityUnit } from './ticket-rules';

export interface SendLabelInput {
  side: Action;
  /** Shares the order is for; undefined while the quantity is not a whole number. */
  shares: number | undefined;
  unit: QuantityUnit;
  lotSize: number;
  name: string;
  priceType: PriceType;
  priceText: string;
  triggerText: string;
  tickSize?: number;
}

function priceText(text: string, tick?: number): string {
  const t = text.trim();
  return t === '' ? '?' : formatPriceExact(t, tick);
}

export function sendLabel(d: SendLabelInput): string {
  const verb = d.side === 'BUY' ? 'Buy' : 'Sell';
  let qty = d.shares === undefined ? '?' : formatQty(d.shares);
  if (d.shares !== undefined && d.unit === 'lots' && d.lotSize > 1) {
    const lots = d.shares / d.lotSize;
    qty = `${formatQty(lots)} lot${lots === 1 ? '' : 's'} (${formatQty(d.shares)})`;
  }
  const at =
    d.priceType === 'MARKET'
      ? '@ MKT'
      : d.priceType === 'LIMIT'
        ? `@ ${priceText(d.priceText, d.tickSize)}`
        : d.priceType === 'SL'
          ? `@ ${priceText(d.priceText, d.tickSize)} trg ${priceText(d.triggerText, d.tickSize)}`
          : `@ MKT trg ${priceText(d.triggerText, d.tickSize)}`;
  return `${verb} ${qty} ${d.name} ${at}`;
}
