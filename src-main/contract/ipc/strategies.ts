// Options strategies (issue 27, docs/strategies.md): a named group of option legs sent as one from
// the builder, then followed as one: its own P&L from its legs' trades (exact to the paisa), one
// combined stop and target on that P&L that the core watches, exits of all its legs as one basket,
// and a leg rolled to another contract. `strategies.list` is both the channel that reads the active
// profile's strategies and the event sent whole at each change.
import { z } from 'zod';
import { ProfileId } from '../../contract/core/index.js';
import { ACTIONS, EXCHANGES, oneOf, symbolText, text } from '../../contract/gateway/index.js';
import { DecimalText } from './views.js';

/** Rupees of the strategy's P&L: a loss to stop at or a profit to take, more than 0, paise at most. */
const rupees = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .positive(`${what} must be more than 0`)
    .max(1e12, `${what} is too large`)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, {
      error: `${what} has at most 2 decimals (paise)`,
    });

const contract = {
  symbol: symbolText(),
  exchange: oneOf('exchange', EXCHANGES),
};

/** One leg as the builder sends it: a listed contract, a side and a quantity in units (lots × lot size). */
export const StrategyLegInput = z.strictObject({
  ...contract,
  action: oneOf('action', ACTIONS, true),
  quantity: z
    .number({ error: 'quantity must be a number' })
    .int('quantity must be a whole number')
    .positive('quantity must be more than 0'),
  /** The lot size the builder counted lots with (the quantity is a whole number of them). */
  lotSize: z.number({ error: 'lotSize must be a number' }).int().positive('lotSize must be more than 0'),
  /** MARKET, or LIMIT at `price` (on the contract's tick). */
  pricetype: z.enum(['MARKET', 'LIMIT'], { error: 'pricetype must be MARKET or LIMIT' }).default('MARKET'),
  price: z.number({ error: 'price must be a number' }).nonnegative('price cannot be negative').default(0),
});
export type StrategyLegInput = z.input<typeof StrategyLegInput>;

export const STRATEGY_PRODUCTS = ['MIS', 'NRML'] as const;
const name = text('name', 40);

/**
 * A new strategy, saved and sent: BUY legs first (their margin hedges the shorts), one leg at a time
 * through the router; a refused or unknown leg stops the rest until the trader says what to do.
 */
export const StrategySendInput = z
  .strictObject({
    name,
    product: z.enum(STRATEGY_PRODUCTS, { error: 'product must be MIS or NRML' }),
    legs: z
      .array(StrategyLegInput, { error: 'legs must be a list of legs' })
      .min(1, 'a strategy has at least one leg')
      .max(20, 'a strategy has at most 20 legs'),
    /** Exit every leg when the strategy has lost this many rupees. */
    stop: rupees('stop').optional(),
    /** Exit every leg when the strategy has made this many rupees. */
    target: rupees('target').optional(),
  })
  .refine((s) => new Set(s.legs.map((l) => `${l.exchange}:${l.symbol}`)).size === s.legs.length, {
    error: 'each contract may appear in one leg only (change the lots instead)',
  });
export type StrategySendInput = z.input<typeof StrategySendInput>;

export const StrategyId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'not a strategy id');
export const StrategyRef = z.strictObject({ id: StrategyId });
export type StrategyRef = z.infer<typeof StrategyRef>;

/** A new name, stop or target (null takes a stop or target away). */
export const StrategyUpdateInput = z
  .strictObject({
    id: StrategyId,
    name: name.optional(),
    stop: rupees('stop').nullable().optional(),
    target: rupees('target').nullable().optional(),
  })
  .refine((u) => u.name !== undefined || u.stop !== undefined || u.target !== undefined, {
    error: 'give a name, a stop or a target',
  });
export type StrategyUpdateInput = z.infer<typeof StrategyUpdateInput>;

/**
 * Rolls a leg: its open quantity closed and the same quantity and side opened in `to`, in one action
 * (the BUY of the two first; a refused first order stops the second).
 */
export const StrategyRollInput = z.strictObject({
  id: StrategyId,
  /** The leg's index in the strategy's legs. */
  leg: z.number().int().nonnegative(),
  to: z.strictObject({ ...contract }),
});
export type StrategyRollInput = z.infer<typeof StrategyRollInput>;

/**
 * waiting: not sent yet; sending: its order is on its way; sent: the gateway took it (an order id);
 * refused: the gateway or a check said no (reason); unknown: no answer (the watcher reconciles it,
 * it is never sent again by itself); closed: a roll closed it (its quantity moved to a new leg).
 */
export const STRATEGY_LEG_STATES = ['waiting', 'sending', 'sent', 'refused', 'unknown', 'closed'] as const;
export type StrategyLegState = (typeof STRATEGY_LEG_STATES)[number];

export const StrategyLegView = z.object({
  symbol: z.string(),
  exchange: z.string(),
  action: z.enum(ACTIONS),
  /** Asked, in units. */
  quantity: z.number().int().positive(),
  lotSize: z.number().int().positive(),
  pricetype: z.enum(['MARKET', 'LIMIT']),
  price: z.number().nonnegative(),
  state: z.enum(STRATEGY_LEG_STATES),
  /** Every order of this leg: its entry, exits and roll orders. */
  orderids: z.array(z.string()),
  reason: z.string().optional(),
  /** Signed units the leg's trades hold open now (+ long, − short). */
  open: z.number().int(),
  /** The average price of the leg's entry trades; null before a fill. */
  averagePrice: DecimalText.nullable(),
  /** The last price the core heard; null before one. */
  ltp: z.number().nullable(),
});
export type StrategyLegView = z.infer<typeof StrategyLegView>;

/**
 * sending: legs on their way; partial: a leg was refused or unknown and the rest wait (send remaining
 * or unwind); open: every leg sent; exiting: the exits went as one basket (never resent); closed:
 * nothing open, read back from the trades; exitFailed: an exit was refused (the trader exits by hand).
 */
export const STRATEGY_STATES = ['sending', 'partial', 'open', 'exiting', 'closed', 'exitFailed'] as const;
export type StrategyState = (typeof STRATEGY_STATES)[number];

export const StrategyExitView = z.object({
  why: z.enum(['stop', 'target', 'trader', 'unwind']),
  /** IST time the exit went out. */
  at: z.string(),
  /** The P&L that triggered it (stop, target), rupees. */
  pnl: DecimalText.optional(),
  orderids: z.array(z.string()),
  /** The gateway's words for legs whose exit was refused. */
  refused: z.array(z.string()),
  /** What the desk should know of it (the basket's answer was lost: the book will tell). */
  note: z.string().optional(),
});
export type StrategyExitView = z.infer<typeof StrategyExitView>;

export const StrategyView = z.object({
  id: StrategyId,
  name: z.string(),
  product: z.enum(STRATEGY_PRODUCTS),
  /** The underlying the legs share (e.g. NIFTY), for grouping and the payoff. */
  underlying: z.string(),
  /** IST time it was first sent. */
  createdAt: z.string(),
  state: z.enum(STRATEGY_STATES),
  legs: z.array(StrategyLegView),
  /** Rupees, 2 decimals, from the legs' trades: realised (closed quantity) and at the last prices. */
  realised: DecimalText,
  unrealised: DecimalText.nullable(),
  /** realised + unrealised; null while an open leg has no price. */
  pnl: DecimalText.nullable(),
  stop: z.number().positive().optional(),
  target: z.number().positive().optional(),
  exit: StrategyExitView.optional(),
});
export type StrategyView = z.infer<typeof StrategyView>;

export const StrategiesView = z.object({ profileId: ProfileId, strategies: z.array(StrategyView) });
export type StrategiesView = z.infer<typeof StrategiesView>;
