// How much of the gateway's one rate budget market polling may use, and how fast it polls.
// Visible: the focused depth every 400 ms (2.5/s, so that ≥ 2/s holds with response latency and
// timer lateness), and one more request every 500 ms (2/s) shared round-robin by the rest (one
// `multiquotes` batch for all ltp/quote instruments counts as one turn, each other depth as one).
// Hidden: both four times slower (focus 0.625/s, the rest 0.5/s together). Never more than 2 market
// requests outstanding, and none while anything waits for the budget or when sending would leave
// fewer than `reserve` free slots: orders always find room.

export interface MarketPlan {
  focusMs: number;
  sharedMs: number;
  /** Hidden window: periods are multiplied by this. */
  hiddenSlowdown: number;
  /** Market requests sent and not yet answered, at most. */
  maxOutstanding: number;
  /** Budget slots market polling never takes (fewer on budgets under 3 × this per second). */
  reserve: number;
  /** When the budget is too busy, look again after this long. */
  deferMs: number;
  /** A failing request is retried after base × 2^(failures − 1), up to max. */
  retryBaseMs: number;
  retryMaxMs: number;
}

export const DEFAULT_PLAN: MarketPlan = {
  focusMs: 400,
  sharedMs: 500,
  hiddenSlowdown: 4,
  maxOutstanding: 2,
  reserve: 2,
  deferMs: 100,
  retryBaseMs: 1000,
  retryMaxMs: 30_000,
};

export function periods(plan: MarketPlan, visible: boolean): { focusMs: number; sharedMs: number } {
  const k = visible ? 1 : plan.hiddenSlowdown;
  return { focusMs: plan.focusMs * k, sharedMs: plan.sharedMs * k };
}

/** Slots to leave free on a budget of `limit` per second: a third of it at most, `plan.reserve` at most. */
export function reserveFor(plan: MarketPlan, limit: number): number {
  if (!(limit > 0) || limit === Infinity) return plan.reserve;
  return Math.min(plan.reserve, Math.floor(limit / 3));
}

export function retryDelay(plan: MarketPlan, failures: number): number {
  return Math.min(plan.retryMaxMs, plan.retryBaseMs * 2 ** Math.max(0, Math.min(failures - 1, 16)));
}
