// What an order action whose outcome is unknown meant to do: the shape the reconciler settles from
// the order book and the interrupted-order match reads.
export interface PlacedOrder {
  symbol: string;
  exchange: string;
  action: string;
  quantity: number;
  pricetype: string;
  product: string;
  price: number;
}

export type UnknownIntent =
  | { operation: 'placeorder'; order: PlacedOrder }
  /**
   * A split (its children, as planSplit sized them) or a basket (its legs): every one is a new order
   * of `strategy`. Found when the book shows all of them.
   */
  | { operation: 'splitorder'; strategy: string; orders: PlacedOrder[] }
  | { operation: 'basketorder'; strategy: string; orders: PlacedOrder[] }
  /**
   * `orderids`: the account's orders (any strategy) open or trigger pending before the call;
   * `strategy` is only the request's tag.
   */
  | { operation: 'cancelallorder'; strategy: string; orderids: string[] }
  /** Settled by the MARKET counter-orders of `strategy` that appear after the call. */
  | { operation: 'closeposition'; strategy: string }
  | {
      operation: 'modifyorder';
      orderid: string;
      changes: { quantity: number; price: number; trigger_price: number };
    }
  | { operation: 'cancelorder'; orderid: string };
