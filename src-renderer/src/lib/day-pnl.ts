// The day's P&L as a trader reads it: what was booked today (the funds' realised M2M) plus what the
// open positions show now (the positions book's MTM at the last prices). Exact, on decimals.
import type { FundsView, PositionsView } from '@contract';
import { addDec, parseDecimal, toPlainText } from '@shared/decimal.js';

/** Realised + unrealised as decimal text; undefined until both are known. */
export function dayPnl(
  funds: Pick<FundsView, 'realisedMtm'> | undefined,
  positions: Pick<PositionsView, 'totalMtm'> | undefined,
): string | undefined {
  const realised = funds ? parseDecimal(funds.realisedMtm) : undefined;
  const open = positions?.totalMtm == null ? undefined : parseDecimal(positions.totalMtm);
  return realised && open ? toPlainText(addDec(realised, open)) : undefined;
}
