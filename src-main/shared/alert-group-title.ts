// The words of the one alert a split or basket raises, alike in the core's OS notification and the
// renderer's Alerts entry: what was sent (`Split BUY 105 INFY`, `Basket of 3 legs`), then how its
// orders stand (`6 of 6 filled · 1 rejected`). Pure.
import { formatQty } from './format.js';

/** The order-state alert kinds a group counts. */
export type GroupChildKind = 'fill' | 'partial' | 'rejection' | 'cancellation';

/** `Split BUY 105 INFY`: `name` is the symbol as the caller shows it. */
export function splitGroupTitle(action: string, quantity: number, name: string): string {
  return `Split ${action.toUpperCase()} ${formatQty(quantity)} ${name}`;
}

/** `Basket of 3 legs`. */
export function basketGroupTitle(legs: number): string {
  return `Basket of ${legs} ${legs === 1 ? 'leg' : 'legs'}`;
}

/**
 * The group's title and kind over its children's latest alert kinds (one per child heard of):
 * any rejection makes it a rejection, every child filled a fill, some filled a partial; otherwise
 * it takes the latest child's kind.
 */
export function groupSummary<K extends string>(
  sent: string,
  total: number,
  kinds: readonly K[],
  latest: K,
): { title: string; kind: K | GroupChildKind } {
  const of = (kind: string) => kinds.filter((k) => k === kind).length;
  const [filled, rejected, cancelled] = [of('fill'), of('rejection'), of('cancellation')];
  const kind = rejected > 0 ? 'rejection' : filled === total ? 'fill' : filled > 0 ? 'partial' : latest;
  const parts = [
    `${filled} of ${total} filled`,
    ...(rejected > 0 ? [`${rejected} rejected`] : []),
    ...(cancelled > 0 ? [`${cancelled} cancelled`] : []),
  ];
  return { title: `${sent}: ${parts.join(' · ')}`, kind };
}
