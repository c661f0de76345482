// Close all, run by the core (`orders.closeAll`): the input, each step's state, the answer, and the
// progress event the desk draws its step list from while the run goes on. One shape for the tray,
// the hotkey and the desk: they all call the same channel.
import { z } from 'zod';
import { ProfileId } from '../../contract/core/index.js';
import { text } from '../../contract/gateway/index.js';

export const CloseAllInput = z
  .strictObject({
    /** The strategy closed; the profile's when absent. */
    strategy: text('strategy', 64).optional(),
  })
  .optional();
export type CloseAllInput = z.input<typeof CloseAllInput>;

export const CLOSE_ALL_STEPS = ['cancel', 'close', 'verify'] as const;
export const CloseAllStepId = z.enum(CLOSE_ALL_STEPS);
export type CloseAllStepId = z.infer<typeof CloseAllStepId>;
export const CloseAllStepState = z.enum(['waiting', 'running', 'done', 'failed', 'skipped']);
export type CloseAllStepState = z.infer<typeof CloseAllStepState>;

export const CloseAllStep = z.object({
  id: CloseAllStepId,
  label: z.string(),
  state: CloseAllStepState,
  /** What the step did or found, in words ("2 cancelled", "Still open: SBIN +10"). */
  detail: z.string().optional(),
});
export type CloseAllStep = z.infer<typeof CloseAllStep>;

/**
 * `flat`: the gateway's books, read after the close, show no position and no working order of the
 * strategy. `not_flat`: read, and something is left. `stopped`: a step failed or its outcome is not
 * known, so flatness was not established (never reported as flat).
 */
export const CloseAllVerdict = z.enum(['flat', 'not_flat', 'stopped']);
export type CloseAllVerdict = z.infer<typeof CloseAllVerdict>;

export const CloseAllResult = z.object({
  strategy: z.string(),
  steps: z.array(CloseAllStep),
  verdict: CloseAllVerdict,
  /** The verdict in one line for the trader. */
  text: z.string(),
  /** Orders this run cancelled, and those it could not (with the gateway's reason). */
  cancelled: z.array(z.string()),
  notCancelled: z.array(z.object({ orderid: z.string(), message: z.string() })),
});
export type CloseAllResult = z.infer<typeof CloseAllResult>;

/** The run's steps as they stand, sent whole at every change; the last one carries the verdict. */
export const CloseAllProgressEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  /** One run's id: the events of one run, whoever started it (desk, hotkey, tray). */
  runId: z.string(),
  strategy: z.string(),
  steps: z.array(CloseAllStep),
  verdict: CloseAllVerdict.optional(),
  text: z.string().optional(),
});
export type CloseAllProgressEvent = z.infer<typeof CloseAllProgressEvent>;
