// The soft daily limits as the core holds them now (`risk.daily`): counted while OrderDesk runs and
// started again at the IST day change. Once a limit is reached only exits go out.
import { z } from 'zod';

/** The two soft daily limits, by their settings field (`risk.dailyOrderCount`, `risk.dailyLossLimit`). */
export const DAILY_LIMITS = ['dailyOrderCount', 'dailyLossLimit'] as const;
export const DailyLimitName = z.enum(DAILY_LIMITS);
export type DailyLimitName = z.infer<typeof DailyLimitName>;

export const DailyLimitsState = z.object({
  /** The IST trading day the counts belong to, `YYYY-MM-DD`. */
  day: z.string(),
  /** New orders OrderDesk sent for the active profile today (entries and exits). */
  ordersToday: z.number().int().min(0),
  /** 0: off. */
  orderLimit: z.number().int().min(0),
  /** Rupees; 0: off. */
  lossLimit: z.number().min(0),
  /** Realised + open MTM as decimal text; null until the books have been read. */
  dayPnl: z.string().nullable(),
  /** The limit reached, after which only exits are allowed; null while entries are allowed. */
  reached: DailyLimitName.nullable(),
});
export type DailyLimitsState = z.infer<typeof DailyLimitsState>;
