// A strategy's exit: the working orders of its legs cancelled (read back), then every leg's open
// quantity closed at MARKET as ONE `orders.basket`. The exit is saved (`exiting`) before the basket
// goes and a basket never goes twice for one exit: a lost answer leaves it `exiting`, the book tells.
import type { IpcResult, StoredStrategy, StoredStrategyExit } from '../../contract/index.js';
import { outcomeOf } from '../protection/send-outcome.js';
import type { Invoke } from './leg-sends.js';
import { tagOf } from './leg-sends.js';

export interface ExitRow {
  leg: number;
  symbol: string;
  exchange: string;
  action: 'BUY' | 'SELL';
  quantity: number;
}

/** The closing order of each leg with units open (signed: + long, − short). */
export function exitRows(s: StoredStrategy, open: readonly number[]): ExitRow[] {
  return s.legs.flatMap((l, i) => {
    const q = open[i] ?? 0;
    if (q === 0) return [];
    return [
      {
        leg: i,
        symbol: l.symbol,
        exchange: l.exchange,
        action: q > 0 ? 'SELL' : 'BUY',
        quantity: Math.abs(q),
      },
    ];
  });
}

interface BasketResult {
  orderid?: string;
  status: string;
  symbol: string;
  message?: string;
}

/** Sends the basket and writes its answer into the exit (and each row's order id into its leg). */
export async function sendExitBasket(
  invoke: Invoke,
  s: StoredStrategy,
  exit: StoredStrategyExit,
  rows: readonly ExitRow[],
): Promise<void> {
  const r: IpcResult<unknown> = await invoke('orders.basket', {
    orders: rows.map((x) => ({
      symbol: x.symbol,
      exchange: x.exchange,
      action: x.action,
      quantity: x.quantity,
      pricetype: 'MARKET',
      product: s.product,
      price: 0,
      trigger_price: 0,
      disclosed_quantity: 0,
    })),
    strategy: tagOf(s),
    // The trader's exit or the strategy's stop: sent as asked, never held as a second press.
    confirmDuplicate: true,
  });
  if (!r.ok) {
    if (outcomeOf(r.error) === 'unknown') {
      if (r.error.journalId !== undefined) exit.journalId = r.error.journalId;
      exit.note = `the basket's answer was lost (${r.error.message}); it is never sent again: the book will tell`;
    } else exit.refused.push(r.error.message);
    return;
  }
  const results = (r.value as { results: BasketResult[] }).results;
  rows.forEach((row, i) => {
    const res = results[i]?.symbol === row.symbol ? results[i] : results.find((x) => x.symbol === row.symbol);
    if (res?.orderid && res.status === 'success') {
      exit.orderids.push(res.orderid);
      s.legs[row.leg]!.orderids.push(res.orderid);
    } else exit.refused.push(`${row.symbol}: ${res?.message ?? 'no answer for this row'}`);
  });
}
