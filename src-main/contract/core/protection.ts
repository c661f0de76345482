// A bracket's protection (issue 25): the stop and target the core attaches to an entry's fills, with
// trailing and break-even. Distances are decimal texts, as the trader typed them, so nothing is lost
// to floating point before the core works the levels out against the fill price and the tick.
import { z } from 'zod';

/** Decimal text > 0 with at most 4 decimals ("10", "0.5", "1.25"). */
const positiveText = (what: string) =>
  z
    .string()
    .regex(/^(?:0|[1-9]\d{0,6})(?:\.\d{1,4})?$/, { error: `${what} must be a number, at most 4 decimals` })
    .refine((s) => Number(s) > 0, { error: `${what} must be more than 0` });

/** How far from the entry's fill price: an absolute price, points, or a percentage of the fill. */
export const PROTECTION_BY = ['price', 'points', 'percent'] as const;
export type ProtectionBy = (typeof PROTECTION_BY)[number];

export const ProtectionDistance = z.strictObject({
  by: z.enum(PROTECTION_BY, { error: `by must be one of: ${PROTECTION_BY.join(', ')}` }),
  value: positiveText('value'),
});
export type ProtectionDistance = z.infer<typeof ProtectionDistance>;

export const ProtectionSpec = z
  .strictObject({
    stop: ProtectionDistance.optional(),
    target: ProtectionDistance.optional(),
    /** Points of favourable move per step of the stop's trigger (needs a stop). */
    trailStep: positiveText('trailStep').optional(),
    /** Points in profit at which the stop moves to the entry price plus `offset` points (needs a stop). */
    breakEven: z
      .strictObject({
        trigger: positiveText('breakEven.trigger'),
        offset: z
          .string()
          .regex(/^-?(?:0|[1-9]\d{0,6})(?:\.\d{1,4})?$/, { error: 'breakEven.offset must be a number' })
          .default('0'),
      })
      .optional(),
  })
  .refine((s) => s.stop !== undefined || s.target !== undefined, {
    error: 'a protection needs a stop, a target or both',
  })
  .refine((s) => s.stop !== undefined || (s.trailStep === undefined && s.breakEven === undefined), {
    error: 'trailing and break-even move a stop: set a stop too',
  });
export type ProtectionSpec = z.infer<typeof ProtectionSpec>;

/** A named protection the ticket offers ("Scalp 10/20"). */
export const ProtectionTemplate = z.strictObject({
  name: z.string().trim().min(1, { error: 'a template needs a name' }).max(40),
  spec: ProtectionSpec,
});
export type ProtectionTemplate = z.infer<typeof ProtectionTemplate>;
