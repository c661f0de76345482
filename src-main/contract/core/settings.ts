// Over 300 lines: every persisted setting is one versioned schema, read and migrated as one file.
// Persisted settings (userData/settings.json) and the gateway profiles inside them. Never secrets:
// the API key lives in the secret store, keyed by profile id.
import { z } from 'zod';
import { ShellSettings, ShellSettingsPatch } from './shell-settings.js';
import { LayoutSettings, LayoutSettingsPatch } from './layout-settings.js';
import { TicketDefaults } from './ticket-defaults.js';
import { DEFAULT_WATCHLISTS, Watchlists } from './watchlist-settings.js';
import { EXCHANGES, symbolText } from '../gateway/primitives.js';
import { BasketLeg } from '../gateway/orders.js';
import { DEFAULT_PROTECTION_SETTINGS, ProtectionSettings } from './protection.js';
import { GuardSettings } from './guard.js';
import { NotifyChoice } from './notify-choice.js';

/** 2: `alerts` holds a rule per event (os, sound, in_app, off) where 1 held booleans. */
export const SETTINGS_VERSION = 2;
/** The embedded paper gateway's profile: always present, first, and the default. */
export const PAPER_PROFILE_ID = 'paper';

const int = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

const riskFields = {
  maxQuantityPerOrder: int('Max quantity per order', 1, 100_000_000),
  /** Rupees. */
  maxValuePerOrder: z
    .number({ error: 'Max value per order must be a number' })
    .positive('Max value per order must be above ₹0')
    .max(1e12, 'Max value per order is too large'),
  /** Largest distance of a LIMIT/SL price or trigger from the last price, in percent; 0 turns it off. */
  priceBandPercent: z
    .number({ error: 'Price band must be a number' })
    .min(0, 'Price band cannot be negative')
    .max(100, 'Price band must be at most 100%'),
  duplicateWindowMs: int('Duplicate window', 0, 60_000),
};

/** The trader answered the first start's limits step (saved them or kept the defaults): not asked again. */
const limitsReviewed = z.boolean({ error: 'limitsReviewed must be true or false' });

// Soft daily limits: the core counts while it runs and starts again at the IST day change; once one
// is reached only exits (orders that reduce an open position) go out. 0 turns a limit off.
const dailyFields = {
  /** Rupees of loss in the day's P&L (realised + open MTM) after which only exits are allowed. */
  dailyLossLimit: z
    .number({ error: 'Daily loss limit must be a number' })
    .min(0, 'Daily loss limit cannot be negative (0 turns it off)')
    .max(1e12, 'Daily loss limit is too large'),
  /** New orders sent through OrderDesk today after which only exits are allowed. */
  dailyOrderCount: int('Daily order count', 0, 100_000),
};

/** Limits for one instrument that replace the general ones for it; an absent field keeps the general one. */
export const SymbolRiskOverride = z.object({
  symbol: symbolText('Symbol').transform((s) => s.toUpperCase()),
  exchange: z.enum(EXCHANGES, { error: `Exchange must be one of: ${EXCHANGES.join(', ')}` }),
  maxQuantityPerOrder: riskFields.maxQuantityPerOrder.optional(),
  maxValuePerOrder: riskFields.maxValuePerOrder.optional(),
  priceBandPercent: riskFields.priceBandPercent.optional(),
});
export type SymbolRiskOverride = z.infer<typeof SymbolRiskOverride>;
export const SYMBOL_OVERRIDES_MAX = 200;
const symbolOverrides = z
  .array(SymbolRiskOverride)
  .max(SYMBOL_OVERRIDES_MAX, `at most ${SYMBOL_OVERRIDES_MAX} per-symbol limits`)
  .refine(
    (list) => new Set(list.map((o) => `${o.exchange}:${o.symbol}`)).size === list.length,
    'An instrument can have one set of per-symbol limits',
  );

export const RiskLimits = z.object({
  maxQuantityPerOrder: riskFields.maxQuantityPerOrder.default(10_000),
  /** ₹50 lakh: one lot of any index future (about ₹17–21 lakh) with room for the index to move. */
  maxValuePerOrder: riskFields.maxValuePerOrder.default(50_00_000),
  priceBandPercent: riskFields.priceBandPercent.default(5),
  duplicateWindowMs: riskFields.duplicateWindowMs.default(2000),
  dailyLossLimit: dailyFields.dailyLossLimit.default(0),
  dailyOrderCount: dailyFields.dailyOrderCount.default(0),
  symbolOverrides: symbolOverrides.default([]),
  limitsReviewed: limitsReviewed.default(false),
});
export type RiskLimits = z.infer<typeof RiskLimits>;

export { NOTIFY_CHOICES, NotifyChoice } from './notify-choice.js';

/** The order events a rule exists for; `unknown`: an order action whose outcome is not known yet. */
export const NOTIFY_EVENTS = ['fill', 'partial', 'rejection', 'cancellation', 'unknown'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

const alertFields = {
  fill: NotifyChoice,
  partial: NotifyChoice,
  rejection: NotifyChoice,
  cancellation: NotifyChoice,
  unknown: NotifyChoice,
  /** Mutes every alert without losing the per-event rules. */
  paused: z.boolean(),
};
/** Notification rules per order event (settings version 1 held on/off toggles: see the migration). */
export const AlertRules = z.object({
  fill: alertFields.fill.default('os'),
  partial: alertFields.partial.default('os'),
  rejection: alertFields.rejection.default('os'),
  cancellation: alertFields.cancellation.default('os'),
  unknown: alertFields.unknown.default('os'),
  paused: alertFields.paused.default(false),
});
export type AlertRules = z.infer<typeof AlertRules>;

const pollingFields = {
  visibleMs: int('visibleMs', 250, 600_000),
  hiddenMs: int('hiddenMs', 250, 600_000),
  openOrdersMs: int('openOrdersMs', 250, 600_000),
};
export const PollingIntervals = z.object({
  visibleMs: pollingFields.visibleMs.default(2000),
  hiddenMs: pollingFields.hiddenMs.default(10_000),
  openOrdersMs: pollingFields.openOrdersMs.default(1000),
});
export type PollingIntervals = z.infer<typeof PollingIntervals>;

// ---- the desk: order confirmations (watchlists: watchlist-settings.ts) ----
/** Ask before each kind of order action (NEST's per-action order prompts); on by default. */
const confirmFields = { place: z.boolean(), modify: z.boolean(), cancel: z.boolean() };
export const OrderConfirmations = z.object({
  place: confirmFields.place.default(true),
  modify: confirmFields.modify.default(true),
  cancel: confirmFields.cancel.default(true),
});
export type OrderConfirmations = z.infer<typeof OrderConfirmations>;

// ---- the desk: saved baskets ----
export const BASKET_LIMIT = 20;
export const BASKET_MAX_LEGS = 50;
/** A named basket the desk saved: the legs as orders.basket takes them (the gateway's leg schema). */
export const SavedBasket = z.object({
  name: z.string().trim().min(1, 'a basket needs a name').max(40, 'basket name: at most 40 characters'),
  legs: z
    .array(BasketLeg)
    .min(1, 'a basket holds at least one leg')
    .max(BASKET_MAX_LEGS, `a basket holds at most ${BASKET_MAX_LEGS} legs`),
});
export type SavedBasket = z.infer<typeof SavedBasket>;
export const SavedBaskets = z
  .array(SavedBasket)
  .max(BASKET_LIMIT, `at most ${BASKET_LIMIT} saved baskets`)
  .refine((list) => new Set(list.map((b) => b.name)).size === list.length, 'basket names must differ');

// ---- one-click mode (scalping): armed, a key press sends at once, within these caps ----
const oneClickFields = {
  armed: z.boolean({ error: 'One-click armed must be true or false' }),
  /** Largest one-click order in lots (a lot is one share for equities). */
  maxLots: int('Max lots', 1, 10_000),
  /** Rupees: the largest one-click order value at the last price. */
  maxValue: z
    .number({ error: 'Max value must be a number' })
    .positive('Max value must be above ₹0')
    .max(1e12, 'Max value is too large'),
  /** The least time between two one-click orders. */
  cooldownMs: int('Cooldown (ms)', 0, 60_000),
};
/** Off by default: the trader arms it on purpose, and it stays armed across restarts. */
export const OneClickSettings = z.object({
  armed: oneClickFields.armed.default(false),
  maxLots: oneClickFields.maxLots.default(1),
  maxValue: oneClickFields.maxValue.default(2_00_000),
  cooldownMs: oneClickFields.cooldownMs.default(1000),
});
export type OneClickSettings = z.infer<typeof OneClickSettings>;

// ---- the desk's keys: a preset (NEST, Kite, OpenAlgo scalping) and the trader's overrides ----
export const HOTKEY_PRESETS = ['nest', 'kite', 'scalping'] as const;
export type HotkeyPreset = (typeof HOTKEY_PRESETS)[number];
/** Action ids and chords are checked by the desk's key map (lib/keymap-presets); here only their shape. */
const hotkeyFields = {
  preset: z.enum(HOTKEY_PRESETS, { error: `hotkeys.preset must be one of: ${HOTKEY_PRESETS.join(', ')}` }),
  /** Action id → its chords (`Ctrl+Shift+X`); an empty list unbinds the action. */
  overrides: z
    .record(
      z
        .string()
        .regex(/^[a-z][a-zA-Z]*(\.[a-zA-Z]+)+$/, 'a hotkey override names an action such as ticket.buy'),
      z
        .array(
          z.string().trim().min(1, 'a chord cannot be empty').max(32, 'a chord is at most 32 characters'),
        )
        .max(4, 'at most 4 chords per action'),
    )
    .refine((o) => Object.keys(o).length <= 64, 'at most 64 hotkey overrides'),
};
export const HotkeySettings = z.object({
  preset: hotkeyFields.preset.default('nest'),
  overrides: hotkeyFields.overrides.default({}),
});
export type HotkeySettings = z.infer<typeof HotkeySettings>;

export const ProfileId = z
  .string({ error: 'profile id must be a string' })
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'profile id must be 1-64 lower-case letters, digits, - or _');
export type ProfileId = z.infer<typeof ProfileId>;

const baseUrl = z
  .string({ error: 'baseUrl must be a string' })
  .trim()
  .max(2048, 'baseUrl is too long')
  .refine((s) => {
    if (s === '') return true;
    try {
      const u = new URL(s);
      // Credentials in a URL would end up in logs and settings; the key goes in the keychain instead.
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password && !u.search;
    } catch {
      return false;
    }
  }, 'baseUrl must be an http(s) URL without credentials or query');

const feedUrl = z
  .string({ error: 'feedUrl must be a string' })
  .trim()
  .max(2048, 'feedUrl is too long')
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'ws:' || u.protocol === 'wss:') && !u.username && !u.password && !u.search;
    } catch {
      return false;
    }
  }, 'feedUrl must be a ws(s) URL without credentials or query');

export const Profile = z.object({
  id: ProfileId,
  name: z.string().trim().min(1, 'name cannot be empty').max(64, 'name must be at most 64 characters'),
  /** 'paper' is the embedded gateway: its baseUrl is filled in at run time and not persisted. */
  kind: z.enum(['paper', 'gateway']).default('gateway'),
  baseUrl,
  strategy: z
    .string()
    .trim()
    .min(1, 'strategy cannot be empty')
    .max(64, 'strategy must be at most 64 characters')
    .default('OrderDesk'),
  /** Requests a second the gateway allows in each of its limiter classes (order mutations, smart orders, the rest). */
  rateLimitPerSecond: int('rateLimitPerSecond', 1, 100).default(10),
  /**
   * The gateway's WebSocket feed (ws:// or wss://, no credentials or query: the key goes in its first
   * message). Absent: derived from baseUrl (https → wss://host/ws, http → ws://host:8765).
   */
  feedUrl: feedUrl.optional(),
  /**
   * "Send my key without TLS": the trader's consent to a plain http:// base URL on another computer
   * (contract/core/key-origin.ts); without it the key is not sent there.
   */
  allowInsecureKey: z.boolean({ error: 'allowInsecureKey must be true or false' }).optional(),
  /**
   * Marked sandbox by the trader: its orders are simulated (a gateway in analyze mode), so the desk
   * shows SANDBOX, not LIVE, unless the gateway itself reports live mode (real money is never shown
   * as simulated). A gateway reporting analyze mode is shown as SANDBOX without the mark.
   */
  sandbox: z.boolean({ error: 'sandbox must be true or false' }).optional(),
});
export type Profile = z.infer<typeof Profile>;
export type ProfileInput = z.input<typeof Profile>;

export const PAPER_PROFILE: Profile = {
  id: PAPER_PROFILE_ID,
  name: 'Paper (simulated)',
  kind: 'paper',
  baseUrl: '',
  strategy: 'OrderDesk',
  rateLimitPerSecond: 10,
};

/** Paper first, ids unique, gateway profiles need a URL, active id must exist (else paper). */
function normaliseProfiles(s: { profiles: Profile[]; activeProfileId: string }) {
  const seen = new Set<string>();
  const others: Profile[] = [];
  let paper: Profile = PAPER_PROFILE;
  for (const p of s.profiles) {
    if (seen.has(p.id)) continue;
    seen.add(p.id);
    if (p.id === PAPER_PROFILE_ID) paper = { ...p, kind: 'paper', baseUrl: '' };
    else if (p.kind === 'gateway') others.push(p);
  }
  const profiles = [paper, ...others];
  const activeProfileId = profiles.some((p) => p.id === s.activeProfileId)
    ? s.activeProfileId
    : PAPER_PROFILE_ID;
  return { profiles, activeProfileId };
}

export const Settings = z
  .object({
    version: z.literal(SETTINGS_VERSION).default(SETTINGS_VERSION),
    risk: RiskLimits.prefault({}),
    alerts: AlertRules.prefault({}),
    polling: PollingIntervals.prefault({}),
    shell: ShellSettings.prefault({}),
    watchlists: Watchlists.default(() => structuredClone(DEFAULT_WATCHLISTS)),
    confirmations: OrderConfirmations.prefault({}),
    hotkeys: HotkeySettings.prefault({}),
    oneClick: OneClickSettings.prefault({}),
    baskets: SavedBaskets.default([]),
    layout: LayoutSettings.default(() => LayoutSettings.parse({})),
    ticketDefaults: TicketDefaults.default({}),
    protection: ProtectionSettings.default(() => structuredClone(DEFAULT_PROTECTION_SETTINGS)),
    /** The account guard's rules per profile id (guard.ts); none: off. */
    guard: GuardSettings.default({}),
    activeProfileId: ProfileId.default(PAPER_PROFILE_ID),
    profiles: z.array(Profile).max(50, 'at most 50 profiles').default([PAPER_PROFILE]),
  })
  .superRefine((s, ctx) => {
    s.profiles.forEach((p, i) => {
      if (p.kind === 'gateway' && p.baseUrl === '')
        ctx.addIssue({ code: 'custom', path: ['profiles', i, 'baseUrl'], message: 'baseUrl is required' });
    });
  })
  .transform((s) => ({ ...s, ...normaliseProfiles(s) }));
export type Settings = z.infer<typeof Settings>;
export type SettingsInput = z.input<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = Settings.parse({});

/** A settings change from the UI: only the fields given change; unknown keys are refused. */
export const SettingsPatch = z.strictObject({
  risk: z
    .strictObject({ ...riskFields, ...dailyFields, symbolOverrides, limitsReviewed })
    .partial()
    .optional(),
  alerts: z.strictObject(alertFields).partial().optional(),
  polling: z.strictObject(pollingFields).partial().optional(),
  shell: ShellSettingsPatch.optional(),
  /** The lists whole (a reorder or an add rewrites its list). */
  watchlists: Watchlists.optional(),
  confirmations: z.strictObject(confirmFields).partial().optional(),
  /** The overrides whole (a remap rewrites them); the preset alone may change. */
  hotkeys: z.strictObject(hotkeyFields).partial().optional(),
  oneClick: z.strictObject(oneClickFields).partial().optional(),
  /** The saved baskets whole (a save or a delete rewrites the list). */
  baskets: SavedBaskets.optional(),
  /** Panel sizes; a table's column widths come whole. */
  layout: LayoutSettingsPatch.optional(),
  /** The segments named replace theirs (ticket-defaults.ts). */
  ticketDefaults: TicketDefaults.optional(),
  /** The templates and defaults whole (a save, rename or delete rewrites them). */
  protection: ProtectionSettings.optional(),
  /** The profiles named replace their guard rules whole. */
  guard: GuardSettings.optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatch>;
