// The guard's rule math, pure and exact: how much of each limit that is on the day has used (money in
// whole paise), which limits are breached, and which 50 % / 80 % warnings are due. Money limits are
// breached when reached (a loss of exactly the limit locks), max orders when the day's orders reach it
// (no order after the last allowed one), max open positions when more than it are open.
import type { GuardRule, GuardRules, GuardUsage } from '../../contract/index.js';
import { formatMoney, formatQty } from '../../shared/format.js';
import { toPaise } from '../risk/daily-limits.js';

/** What the books say now; money in paise, null while not known. */
export interface GuardFigures {
  /** The day's MTM: realised + unrealised. */
  mtm: bigint | null;
  /** The day's highest MTM so far (0 at the day's start). */
  peak: bigint;
  orders: number;
  openPositions: number;
  /** The largest loss on one open position (0 when none loses), and which; null while unpriced. */
  worst: { loss: bigint; symbol: string } | null;
}

/** A rule's use with its exact figures beside the contract's view of it. */
export interface RuleUse extends GuardUsage {
  breached: boolean;
  /** The breach in words ("Day MTM -₹5,020.00 is past the daily loss lock ₹5,000.00"). */
  reason: string;
}

export type WarnLevel = 50 | 80;

/** Paise as decimal text: -502000n → "-5020.00". */
export function paiseText(p: bigint): string {
  const abs = p < 0n ? -p : p;
  return `${p < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const money = (p: bigint) => formatMoney(paiseText(p));
const max0 = (p: bigint) => (p > 0n ? p : 0n);

const NAMES: Record<GuardRule, string> = {
  dailyLoss: 'daily loss lock',
  dailyProfit: 'daily profit lock',
  maxDrawdown: 'max drawdown',
  maxOrders: 'max orders per day',
  maxOpenPositions: 'max open positions',
  maxLossPerPosition: 'max loss per position',
};
export const ruleName = (rule: GuardRule): string => NAMES[rule];

function use(
  rule: GuardRule,
  used: bigint,
  limit: bigint,
  isMoney: boolean,
  breached: boolean,
  words: () => string,
  reason: () => string,
): RuleUse {
  const show = (n: bigint) => (isMoney ? paiseText(n) : String(n));
  // Words are made when read (a view, an alert), not at every tick.
  return {
    rule,
    used: show(used),
    limit: show(limit),
    percent: Number((used * 100n) / limit),
    get words() {
      return words();
    },
    breached,
    get reason() {
      return reason();
    },
  };
}

/** The money limits in paise, worked out once per rules object (settings are replaced, not changed). */
const limitsOf = new WeakMap<GuardRules, [bigint, bigint, bigint, bigint]>();
function paiseLimits(rules: GuardRules): [bigint, bigint, bigint, bigint] {
  let l = limitsOf.get(rules);
  if (!l) {
    l = [rules.dailyLoss, rules.dailyProfit, rules.maxDrawdown, rules.maxLossPerPosition].map(toPaise) as [
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    limitsOf.set(rules, l);
  }
  return l;
}

/** Every rule that is on and can be judged now (money rules wait for the MTM), in the contract's order. */
export function usageOf(rules: GuardRules, f: GuardFigures): RuleUse[] {
  const out: RuleUse[] = [];
  const [lossLimit, profitLimit, drawLimit, posLimit] = paiseLimits(rules);
  // For the words, made later: the money rules are only judged while the MTM is known.
  const mtm = f.mtm ?? 0n;
  if (lossLimit > 0n && f.mtm !== null) {
    const loss = max0(-f.mtm);
    out.push(
      use(
        'dailyLoss',
        loss,
        lossLimit,
        true,
        loss >= lossLimit,
        () => `Day loss ${money(loss)} of ${money(lossLimit)}`,
        () => `Day MTM ${money(mtm)} is past the daily loss lock ${money(lossLimit)}`,
      ),
    );
  }
  if (profitLimit > 0n && f.mtm !== null) {
    const profit = max0(f.mtm);
    out.push(
      use(
        'dailyProfit',
        profit,
        profitLimit,
        true,
        profit >= profitLimit,
        () => `Day profit ${money(profit)} of ${money(profitLimit)}`,
        () => `Day MTM ${money(mtm)} reached the daily profit lock ${money(profitLimit)}`,
      ),
    );
  }
  if (drawLimit > 0n && f.mtm !== null) {
    const down = max0(f.peak - f.mtm);
    out.push(
      use(
        'maxDrawdown',
        down,
        drawLimit,
        true,
        down >= drawLimit,
        () => `Drawdown ${money(down)} of ${money(drawLimit)} (peak ${money(f.peak)})`,
        () =>
          `Day MTM ${money(mtm)} is ${money(down)} below the day's peak ${money(f.peak)}, past the max drawdown ${money(drawLimit)}`,
      ),
    );
  }
  if (rules.maxOrders > 0) {
    const limit = BigInt(rules.maxOrders);
    const n = BigInt(f.orders);
    out.push(
      use(
        'maxOrders',
        n,
        limit,
        false,
        n >= limit,
        () => `Orders ${formatQty(f.orders)} of ${formatQty(rules.maxOrders)}`,
        () =>
          `${formatQty(f.orders)} orders today reached the max orders per day ${formatQty(rules.maxOrders)}`,
      ),
    );
  }
  if (rules.maxOpenPositions > 0) {
    const limit = BigInt(rules.maxOpenPositions);
    const n = BigInt(f.openPositions);
    out.push(
      use(
        'maxOpenPositions',
        n,
        limit,
        false,
        n > limit,
        () => `Open positions ${formatQty(f.openPositions)} of ${formatQty(rules.maxOpenPositions)}`,
        () =>
          `${formatQty(f.openPositions)} open positions are more than the max open positions ${formatQty(rules.maxOpenPositions)}`,
      ),
    );
  }
  if (posLimit > 0n && f.worst !== null) {
    const { loss, symbol } = f.worst;
    const on = loss > 0n ? ` (${symbol})` : '';
    out.push(
      use(
        'maxLossPerPosition',
        loss,
        posLimit,
        true,
        loss >= posLimit,
        () => `Worst position loss ${money(loss)} of ${money(posLimit)}${on}`,
        () => `${symbol} is losing ${money(loss)}, past the max loss per position ${money(posLimit)}`,
      ),
    );
  }
  return out;
}

/** The limit closest to being reached (the highest percent; the first of equals). */
export function nearestOf<U extends GuardUsage>(usage: readonly U[]): U | null {
  let best: U | null = null;
  for (const u of usage) if (!best || u.percent > best.percent) best = u;
  return best;
}

/**
 * Warnings due now: a rule not breached at 50 % or more gets its highest level reached, once per level
 * (a rule first seen at 85 % gets the 80 % warning alone).
 */
export function warningsDue(
  usage: readonly RuleUse[],
  warned: Readonly<Record<string, WarnLevel>>,
): { use: RuleUse; level: WarnLevel }[] {
  const due: { use: RuleUse; level: WarnLevel }[] = [];
  for (const u of usage) {
    if (u.breached) continue;
    const level: WarnLevel | undefined = u.percent >= 80 ? 80 : u.percent >= 50 ? 50 : undefined;
    if (level !== undefined && level > (warned[u.rule] ?? 0)) due.push({ use: u, level });
  }
  return due;
}

/** The contract's view of a use (the exact extras dropped). */
export const usageView = ({ rule, used, limit, percent, words }: RuleUse): GuardUsage => ({
  rule,
  used,
  limit,
  percent,
  words,
});
