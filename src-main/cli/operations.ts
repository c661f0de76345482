// How each gateway operation is carried out from the command line. Every order operation goes
// through the core's router, so the risk checks, the duplicate guard, the journal and the handling
// of unknown outcomes are the app's own. Reads go to the gateway client directly: the CLI prints the
// gateway's parsed answers (the contract's operation types), which the router's books.* channels
// reshape into the UI's views, and a read needs none of the core's order machinery.
import { OPERATIONS, type Channel, type OperationName } from '../contract/index.js';

/** The router channel of each order operation. */
export const ORDER_CHANNELS = {
  placeorder: 'orders.place',
  modifyorder: 'orders.modify',
  cancelorder: 'orders.cancel',
  cancelallorder: 'orders.cancelAll',
  placesmartorder: 'orders.smart',
  splitorder: 'orders.split',
  basketorder: 'orders.basket',
  closeposition: 'orders.closePosition',
  placegttorder: 'gtt.place',
  modifygttorder: 'gtt.modify',
  cancelgttorder: 'gtt.cancel',
} as const satisfies Partial<Record<OperationName, Channel>>;

/** `gtt place|modify|cancel|book`: the GTT operations by a shorter name (`gtt book` reads the book). */
export const GTT_VERBS: Readonly<Record<string, OperationName>> = {
  place: 'placegttorder',
  modify: 'modifygttorder',
  cancel: 'cancelgttorder',
  book: 'gttorderbook',
};

export type Route = { via: 'router'; channel: Channel } | { via: 'client'; operation: OperationName };

/**
 * The route of an operation, or undefined when the CLI does not offer it: a mutation the core has no
 * checked, journalled channel for (options orders) is never sent around the core.
 */
export function routeOf(operation: string): Route | undefined {
  if (!Object.hasOwn(OPERATIONS, operation)) return undefined;
  const name = operation as OperationName;
  if (Object.hasOwn(ORDER_CHANNELS, name))
    return { via: 'router', channel: ORDER_CHANNELS[name as keyof typeof ORDER_CHANNELS] };
  return OPERATIONS[name].kind === 'read' ? { via: 'client', operation: name } : undefined;
}

/** Every operation the CLI offers, in the contract's order. */
export const OFFERED: readonly string[] = Object.keys(OPERATIONS).filter((n) => routeOf(n) !== undefined);
