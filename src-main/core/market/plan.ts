// How much of the gateway's one rate budget market polling may use, and how fast it polls.
// Visible: the focused depth every 400 ms (2.5/s, so that ≥ 2/s holds with response latency and
// timer lateness), and one more request a second shared round-robin by the rest (one `multiquotes`
// batch for all ltp/quote instruments counts as one turn, each other depth as one): 3.5 of the
// default 10 requests/s at most. Hidden: both four times slower (focus 0.625/s, the rest 0.25/s).
// Never more than 2 market requests outstanding, and none while anything waits for the budget (an
// order goes first); the focused depth never takes the budget's last free slot, the rest never one
// of its last 3, so a burst of orders finds room.

export interface MarketPlan {
  focusMs: number;
  sharedMs: number;
  /** Hidden window: periods are multiplied by this. */
  hiddenSlowdown: number;
  /** Market requests sent and not yet answered, at most. */
  maxOutstanding: number;
  /** Budget slots each lane never takes (fewer on budgets under 3 × this per second). */
  reserve: { focus: number; shared: number };
  /** When the budget is too busy, look again after this long. */
  deferMs: number;
  /** A failing request is retried after base × 2^(failures − 1), up to max. */
  retryBaseMs: number;
  retryMaxMs: number;
}

export const DEFAULT_PLAN: MarketPlan = {
  focusMs: 400,
  sharedMs: 1000,
  hiddenSlowdown: 4,
  maxOutstanding: 2,
  reserve: { focus: 1, shared: 3 },
  deferMs: 100,
  retryBaseMs: 1000,
  retryMaxMs: 30_000,
};

export function periods(plan: MarketPlan, visible: boolean): { focusMs: number; sharedMs: number } {
  const k = visible ? 1 : plan.hiddenSlowdown;
  return { focusMs: plan.focusMs * k, sharedMs: plan.sharedMs * k };
}

/** Slots a lane leaves free on a budget of `limit` per second: its reserve, at most a third of the budget. */
export function reserveFor(plan: MarketPlan, lane: 'focus' | 'shared', limit: number): number {
  if (!(limit > 0) || limit === Infinity) return plan.reserve[lane];
  return Math.min(plan.reserve[lane], Math.floor(limit / 3));
}

export function retryDelay(plan: MarketPlan, failures: number): number {
  return Math.min(plan.retryMaxMs, plan.retryBaseMs * 2 ** Math.max(0, Math.min(failures - 1, 16)));
}
