// gtt.place, gtt.modify, gtt.cancel, gtt.book: GTT (good-till-triggered) orders through the core. The
// inputs are the gateway's GTT requests (contract/gateway/gtt.ts) less the key, with the strategy
// defaulting to the profile's; the core applies the gateway schema's rules between fields (one trigger
// for SINGLE, all four prices for OCO) before anything is journalled or sent.
import { z } from 'zod';
import {
  CancelGttOrderRequest,
  GTT_BOOK_FILTERS,
  GttRecord,
  ModifyGttOrderRequest,
  PlaceGttOrderRequest,
  oneOf,
  text,
} from '../../contract/gateway/index.js';

const strategy = text('strategy', 64).optional();
const withoutKey = <S extends z.ZodRawShape>(shape: S) => {
  const { apikey: _k, strategy: _s, ...rest } = shape as S & { apikey: unknown; strategy: unknown };
  return rest as Omit<S, 'apikey' | 'strategy'>;
};

/**
 * `confirmDuplicate`: send it though an identical GTT placement is still in doubt (the hold otherwise
 * refuses it with the reason in words, kind `unresolved_duplicate`).
 */
export const GttPlaceIpcInput = z.strictObject({
  ...withoutKey(PlaceGttOrderRequest.shape),
  strategy,
  confirmDuplicate: z.boolean({ error: 'confirmDuplicate must be true or false' }).optional(),
});
export type GttPlaceIpcInput = z.input<typeof GttPlaceIpcInput>;
export const GttModifyIpcInput = z.strictObject({ ...withoutKey(ModifyGttOrderRequest.shape), strategy });
export type GttModifyIpcInput = z.input<typeof GttModifyIpcInput>;
export const GttCancelIpcInput = z.strictObject({ ...withoutKey(CancelGttOrderRequest.shape), strategy });
export type GttCancelIpcInput = z.input<typeof GttCancelIpcInput>;

/** `active` (the default) or `all` (cancelled and triggered ones too), as the gateway's filter. */
export const GttBookIpcInput = z
  .strictObject({ status: oneOf('status', GTT_BOOK_FILTERS).optional() })
  .optional();

/** The GTT order book as the gateway answered it, newest first. */
export const GttBookView = z.object({ gtts: z.array(GttRecord) });
export type GttBookView = z.infer<typeof GttBookView>;
