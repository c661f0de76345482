// orders.margin: the margin the active profile's gateway works out for an order (the ticket's) or a
// basket's orders (`margin`, gateway-behaviour §5.6), with who worked it out. The ticket labels the
// figure with its source and compares it with the available funds before sending.
import { z } from 'zod';
import { MarginRequest } from '../../contract/gateway/index.js';
import { DecimalText } from './views.js';

/** The positions to price, as the gateway's margin request less the key (1–50 of them). */
export const MarginIpcInput = z.strictObject({ positions: MarginRequest.shape.positions });
export type MarginIpcInput = z.infer<typeof MarginIpcInput>;

/** Who worked the margin out: the embedded paper gateway, or the profile's own gateway. */
export const MarginSource = z.enum(['paper', 'gateway']);
export type MarginSource = z.infer<typeof MarginSource>;

/** Rupees, rounded up to the paisa (a requirement is never understated). */
export const MarginEstimate = z.object({
  total: DecimalText,
  span: DecimalText,
  exposure: DecimalText,
  /** The hedge benefit the gateway gave (a basket of offsetting legs), when it gives one. */
  benefit: DecimalText.optional(),
  source: MarginSource,
});
export type MarginEstimate = z.infer<typeof MarginEstimate>;
