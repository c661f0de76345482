// The core's brackets as the desk sees them (core/protection, docs/protection.md): each entry with its
// stop and target legs, where they rest, the trailing state and any hazard, plus the channels that
// change one. `protection.brackets` is both the channel that reads them and the event sent whole at
// each change, for the active profile.
import { z } from 'zod';
import { ProfileId, ProtectionSpec } from '../../contract/core/index.js';
import { CancelOrderRequest, PlaceOrderRequest } from '../../contract/gateway/index.js';

/** One side of a bracket, summed over its orders at the gateway (a leg is re-placed as the entry fills). */
export const LEG_STATES = ['none', 'pending', 'working', 'filled', 'refused', 'cancelled'] as const;
export type LegState = (typeof LEG_STATES)[number];
export const LegView = z.object({
  state: z.enum(LEG_STATES),
  /** The working order, if any. */
  orderid: z.string().optional(),
  /** What rests now (the working order's quantity), and what the leg's orders have filled. */
  quantity: z.number().int().nonnegative(),
  filled: z.number().int().nonnegative(),
  /** The stop's trigger or the target's limit price, as the core last set it. */
  price: z.number().optional(),
  /** The gateway's words for a refusal. */
  reason: z.string().optional(),
});
export type LegView = z.infer<typeof LegView>;

/**
 * waiting: no fill yet; protected: legs rest for the open quantity; unprotected: a leg was refused;
 * overshoot: the legs filled more than the entry (the position reversed); closed: nothing open.
 */
export const BRACKET_STATES = ['waiting', 'protected', 'unprotected', 'overshoot', 'closed'] as const;
export type BracketState = (typeof BRACKET_STATES)[number];
/** off: no trailing; armed: set, not moved yet; trailing: moved in steps; breakeven: at the entry. */
export const TRAIL_STATES = ['off', 'armed', 'trailing', 'breakeven'] as const;
export type TrailState = (typeof TRAIL_STATES)[number];

export const BracketView = z.object({
  /** The entry order's id: a bracket's name in every channel. */
  entry: z.string(),
  symbol: z.string(),
  exchange: z.string(),
  product: z.string(),
  action: z.enum(['BUY', 'SELL']),
  tick: z.number().positive(),
  spec: ProtectionSpec,
  /** core: OrderDesk holds the one-cancels-other (it must keep running); gtt: a GTT OCO at the gateway. */
  kind: z.enum(['core', 'gtt']),
  entryFilled: z.number().int().nonnegative(),
  /** The entry's average fill price; 0 before its first fill. */
  entryPrice: z.number().nonnegative(),
  /** Entry filled less what the legs filled; below 0 the position went past flat (overshoot). */
  open: z.number().int(),
  stop: LegView.optional(),
  target: LegView.optional(),
  trail: z.enum(TRAIL_STATES),
  state: z.enum(BRACKET_STATES),
  /** The hazard in words, for the row and the alert. */
  hazard: z.string().optional(),
});
export type BracketView = z.infer<typeof BracketView>;

export const BracketsView = z.object({ profileId: ProfileId, brackets: z.array(BracketView) });
export type BracketsView = z.infer<typeof BracketsView>;

const entry = CancelOrderRequest.shape.orderid;
const level = (what: string) =>
  z.number({ error: `${what} must be a number` }).positive({ error: `${what} must be more than 0` });

/** One bracket, by its entry's order id. */
export const BracketInput = z.strictObject({ entry });
export type BracketInput = z.infer<typeof BracketInput>;

/** New levels for a bracket's legs (on the instrument's tick, on the right side of the last price). */
export const BracketModifyInput = z
  .strictObject({ entry, stop: level('stop').optional(), target: level('target').optional() })
  .refine((m) => m.stop !== undefined || m.target !== undefined, { error: 'give a stop, a target or both' });
export type BracketModifyInput = z.infer<typeof BracketModifyInput>;

/** The closing order a flatten sent: the bracket's legs cancelled (read back) first. */
export const BracketFlattenResult = z.object({
  orderid: z.string(),
  action: PlaceOrderRequest.shape.action,
  quantity: z.number().int().positive(),
});
export type BracketFlattenResult = z.infer<typeof BracketFlattenResult>;
