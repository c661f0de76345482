// What a smart order will do, before it is sent: the current net position and the exact order that
// brings it to the target, or "no action". The decision is the paper gateway's own pure module
// (src-main/shared/smart-order.ts, no I/O): one implementation for the preview and the paper
// fill, so they cannot disagree.
import type { SmartOrderIpcInput, SmartPreview } from '../../contract/index.js';
import type { GatewayClient, GatewayResult } from '../../gateway/index.js';
import { ok } from '../../gateway/index.js';
import { previewSmartOrder } from '../../shared/smart-order.js';

type Reads = Pick<GatewayClient, 'openposition' | 'positionbook'>;

/** The signed net position for (symbol, exchange, product): `openposition`, else the position book. */
export async function currentPosition(
  client: Reads,
  q: {
    strategy: string;
    symbol: string;
    exchange: SmartOrderIpcInput['exchange'];
    product: SmartOrderIpcInput['product'];
  },
): Promise<GatewayResult<number>> {
  const r = await client.openposition(q);
  if (r.ok) return ok(r.value.quantity);
  if (r.error.kind !== 'not_offered') return r;
  const book = await client.positionbook();
  if (!book.ok) return book;
  const symbol = q.symbol.toUpperCase();
  const row = book.value.data.find(
    (p) => p.symbol.toUpperCase() === symbol && p.exchange === q.exchange && p.product === q.product,
  );
  return ok(row?.quantity ?? 0);
}

/** Pure: the preview for a known current position. */
export function smartPreview(input: SmartOrderIpcInput, current: number): SmartPreview {
  const decision = previewSmartOrder({
    action: input.action,
    quantity: input.quantity,
    position_size: input.position_size,
    current,
  });
  if (decision.kind === 'none') return { current, target: input.position_size, decision };
  return {
    current,
    target: input.position_size,
    decision: {
      kind: 'order',
      order: {
        exchange: input.exchange,
        symbol: input.symbol,
        action: decision.action,
        quantity: decision.quantity,
        pricetype: input.pricetype,
        product: input.product,
        price: input.price,
        trigger_price: input.trigger_price,
        disclosed_quantity: input.disclosed_quantity,
      },
    },
  };
}

export async function previewSmart(
  client: Reads,
  input: SmartOrderIpcInput,
  strategy: string,
): Promise<GatewayResult<SmartPreview>> {
  const current = await currentPosition(client, {
    strategy,
    symbol: input.symbol,
    exchange: input.exchange,
    product: input.product,
  });
  if (!current.ok) return current;
  return ok(smartPreview(input, current.value));
}
