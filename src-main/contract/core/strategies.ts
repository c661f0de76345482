// Options strategies on disk (<dataDir>/strategies/<profile>.json, core/strategies): each strategy as
// the core keeps it, saved before every send, so a restart knows which legs went, which may have
// gone (a leg saved as `sending` is `unknown` after a restart, never resent) and that an exit basket
// went (an `exiting` strategy never sends its basket again).
import { z } from 'zod';

const LEG_STATES = ['waiting', 'sending', 'sent', 'refused', 'unknown', 'closed'] as const;
const STATES = ['sending', 'partial', 'open', 'exiting', 'closed', 'exitFailed'] as const;

export const StoredStrategyLeg = z.object({
  symbol: z.string().min(1),
  exchange: z.string().min(1),
  action: z.enum(['BUY', 'SELL']),
  quantity: z.number().int().positive(),
  lotSize: z.number().int().positive(),
  pricetype: z.enum(['MARKET', 'LIMIT']),
  price: z.number().nonnegative(),
  state: z.enum(LEG_STATES),
  /** Every order of the leg: its entry, a roll's close, the exit basket's row. */
  orderids: z.array(z.string()),
  reason: z.string().optional(),
  /** The journal entry of a send whose answer was lost: its reconciliation adopts the order. */
  journalId: z.string().optional(),
  /** A roll closed it: `closed` once its trades show it flat. */
  rolled: z.boolean().optional(),
  /**
   * A roll's close on its way: the units it closes (signed as the leg's open). Set before the send,
   * cleared by its answer; found set after a restart, the book settles it.
   */
  closing: z.number().int().optional(),
});
export type StoredStrategyLeg = z.infer<typeof StoredStrategyLeg>;

export const StoredStrategyExit = z.object({
  why: z.enum(['stop', 'target', 'trader', 'unwind']),
  /** Epoch ms the exit was saved, just before its basket went. */
  at: z.number(),
  /** The P&L that triggered it, rupees as decimal text. */
  pnl: z.string().optional(),
  orderids: z.array(z.string()),
  refused: z.array(z.string()),
  /** The basket's answer was lost: its journal entry (the reconciliation adopts its orders). */
  journalId: z.string().optional(),
  note: z.string().optional(),
});
export type StoredStrategyExit = z.infer<typeof StoredStrategyExit>;

export const StoredStrategy = z.object({
  id: z.string().min(1),
  name: z.string(),
  product: z.enum(['MIS', 'NRML']),
  underlying: z.string(),
  /** The strategy tag its orders carry, fixed when it is sent (a rename keeps it). */
  tag: z.string().optional(),
  /** Epoch ms it was first saved. */
  createdAt: z.number(),
  state: z.enum(STATES),
  legs: z.array(StoredStrategyLeg),
  stop: z.number().positive().optional(),
  target: z.number().positive().optional(),
  exit: StoredStrategyExit.optional(),
});
export type StoredStrategy = z.infer<typeof StoredStrategy>;

export const StoredStrategies = z.object({
  version: z.literal(1),
  strategies: z.array(StoredStrategy),
});
export type StoredStrategies = z.infer<typeof StoredStrategies>;
