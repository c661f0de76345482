// The child orders of a split order, by the paper gateway's own pure plan (shared/split-plan.ts)
// so the preview is what the gateway will place.
import type { SplitOrderIpcInput, SplitPreview } from '../../contract/index.js';
import { planSplit, SplitPlanError } from '../../shared/split-plan.js';

export type SplitPreviewResult = { ok: true; value: SplitPreview } | { ok: false; message: string };

export function splitPreview(input: SplitOrderIpcInput): SplitPreviewResult {
  let quantities: number[];
  try {
    quantities = planSplit(input.quantity, input.splitsize);
  } catch (err) {
    if (err instanceof SplitPlanError) return { ok: false, message: err.message };
    throw err;
  }
  const { splitsize: _size, strategy: _strategy, confirmDuplicate: _confirm, ...leg } = input;
  return {
    ok: true,
    value: { children: quantities.map((quantity) => ({ ...leg, quantity })), totalQuantity: input.quantity },
  };
}
