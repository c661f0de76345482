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

export const PROTECTION_TEMPLATES_MAX = 20;
const templateName = ProtectionTemplate.shape.name;

/**
 * The ticket's protection templates (part of settings.json) and the one it picks first per market
 * segment (equity, fno, commodity: ticket-defaults.ts). A default names a template in the list.
 */
export const ProtectionSettings = z
  .strictObject({
    templates: z
      .array(ProtectionTemplate)
      .max(PROTECTION_TEMPLATES_MAX, { error: `at most ${PROTECTION_TEMPLATES_MAX} protection templates` })
      .refine((list) => new Set(list.map((t) => t.name)).size === list.length, {
        error: 'two protection templates cannot share a name',
      }),
    defaults: z.strictObject({
      equity: templateName.optional(),
      fno: templateName.optional(),
      commodity: templateName.optional(),
    }),
  })
  .refine(
    (s) => Object.values(s.defaults).every((n) => n === undefined || s.templates.some((t) => t.name === n)),
    {
      error: 'a default protection names a template that is not in the list',
    },
  );
export type ProtectionSettings = z.infer<typeof ProtectionSettings>;

/** What a first start offers: a scalper's points and a swing trader's percentages. */
export const DEFAULT_PROTECTION_SETTINGS: ProtectionSettings = {
  templates: [
    {
      name: 'Scalp 10/20',
      spec: { stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } },
    },
    {
      name: 'Swing 1 %/3 %',
      spec: { stop: { by: 'percent', value: '1' }, target: { by: 'percent', value: '3' } },
    },
  ],
  defaults: {},
};

/**
 * One protective order of a bracket as the core keeps it on disk (core/protection/bracket-store.ts):
 * its id once answered; `unknown` when a send may have reached the gateway without an answer (it is
 * adopted from the book after a restart, never sent again).
 */
export const StoredLeg = z.object({
  orderid: z.string().optional(),
  cancelledByUs: z.boolean(),
  unknown: z.boolean(),
  refusedReason: z.string().optional(),
  /** A refused order the trader asked to place again: left out of the plan. */
  retried: z.boolean().optional(),
  /** The quantity its place asked for: a lost answer is adopted only by an order of it. */
  asked: z.number().int().positive().optional(),
});
export type StoredLeg = z.infer<typeof StoredLeg>;

/** A flattening order a bracket sent: `sign` +1 when it closes the entry's side, −1 when it adds. */
export const StoredFlatten = z.object({
  leg: StoredLeg,
  sign: z.union([z.literal(1), z.literal(-1)]),
  quantity: z.number().int().positive(),
});
export type StoredFlatten = z.infer<typeof StoredFlatten>;

export const StoredBracket = z.object({
  entry: z.object({
    orderid: z.string().min(1),
    symbol: z.string().min(1),
    exchange: z.string().min(1),
    product: z.string().min(1),
    action: z.enum(['BUY', 'SELL']),
    tick: z.number().positive(),
    freeze: z.number().int().positive().optional(),
    /** core: OrderDesk holds the OCO; gtt: one GTT OCO rests at the gateway. */
    kind: z.enum(['core', 'gtt']).optional(),
    spec: ProtectionSpec,
  }),
  levels: z.object({ stop: z.number().optional(), target: z.number().optional() }).optional(),
  initialStop: z.number().optional(),
  stop: z.number().optional(),
  best: z.number().optional(),
  /** The trader removed the protection (or flattened): its legs are cancelled, nothing is placed. */
  removing: z.boolean().optional(),
  legs: z.object({ stop: z.array(StoredLeg), target: z.array(StoredLeg) }),
  flatten: z.array(StoredFlatten).optional(),
});
export type StoredBracket = z.infer<typeof StoredBracket>;

/** A bracket that rests as one GTT OCO at the gateway (core/protection/gtt-keeper.ts). */
export const StoredGttBracket = z.object({
  entry: StoredBracket.shape.entry,
  stop: z.number().optional(),
  target: z.number().optional(),
  initialStop: z.number().optional(),
  best: z.number().optional(),
  removing: z.boolean().optional(),
  flattened: z.boolean().optional(),
  gtt: z.object({
    id: z.string().optional(),
    unknown: z.boolean(),
    cancelledByUs: z.boolean(),
    refusedReason: z.string().optional(),
  }),
});
export type StoredGttBracket = z.infer<typeof StoredGttBracket>;

/** brackets/<profile>.json: the brackets of one profile, written before each protective send. */
export const StoredBrackets = z.object({
  version: z.literal(1),
  brackets: z.array(StoredBracket),
  gtt: z.array(StoredGttBracket).default([]),
});
export type StoredBrackets = z.infer<typeof StoredBrackets>;
