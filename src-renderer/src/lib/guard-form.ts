// The Settings pane's account guard form (issue 26), read into the rules settings.update takes for one
// profile: `{ guard: { [profileId]: rules } }` replaces that profile's rules whole. The six limits are
// typed as a trader writes them (`5,000`, `₹ 1.50`; 0 turns one off), the cooling-off is "until the
// next trading day" or a number of minutes. A field that cannot be read says why under it, keyed
// `guard.<field>` as main's refusals are once their profile id is taken out.
import type { GuardAction, GuardRules, NotifyChoice } from '@contract';
import type { FieldErrors } from '../state/settings.svelte';
import { readAmount, readFields, readWhole, type NumberField } from './settings-form';

/**
 * A profile's rules before any are saved: the contract's defaults (core/guard.ts, which the renderer
 * imports as types only; a component test holds the two side by side).
 */
export const DEFAULT_GUARD_RULES: GuardRules = {
  enabled: false,
  dailyLoss: 0,
  dailyProfit: 0,
  maxDrawdown: 0,
  maxOrders: 0,
  maxOpenPositions: 0,
  maxLossPerPosition: 0,
  action: 'block',
  coolOffMinutes: 0,
  warn50: 'in_app',
  warn80: 'os',
};

export type GuardLimit =
  'dailyLoss' | 'dailyProfit' | 'maxDrawdown' | 'maxOrders' | 'maxOpenPositions' | 'maxLossPerPosition';

export const GUARD_LIMITS: readonly (NumberField<GuardLimit> & { hint: string; money: boolean })[] = [
  {
    id: 'dailyLoss',
    label: 'Daily loss lock',
    hint: '₹ of the day’s MTM lost (realised + open); 0 is off',
    read: readAmount,
    money: true,
  },
  {
    id: 'dailyProfit',
    label: 'Daily profit lock',
    hint: '₹ of the day’s MTM made: the day is locked in; 0 is off',
    read: readAmount,
    money: true,
  },
  {
    id: 'maxDrawdown',
    label: 'Max drawdown',
    hint: '₹ fallen from the day’s peak MTM; 0 is off',
    read: readAmount,
    money: true,
  },
  {
    id: 'maxOrders',
    label: 'Max orders per day',
    hint: 'orders placed today on the account, any client’s; 0 is off',
    read: readWhole,
    money: false,
  },
  {
    id: 'maxOpenPositions',
    label: 'Max open positions',
    hint: 'locks when more than this are open; 0 is off',
    read: readWhole,
    money: false,
  },
  {
    id: 'maxLossPerPosition',
    label: 'Max loss per position',
    hint: '₹ lost on any one open position; 0 is off',
    read: readAmount,
    money: true,
  },
];

export const GUARD_ACTION_CHOICES: readonly { id: GuardAction; label: string; note: string }[] = [
  { id: 'warn', label: 'Warn only', note: 'an alert; nothing is blocked' },
  {
    id: 'block',
    label: 'Block new entries',
    note: 'only orders that reduce a position go out until the lock ends',
  },
  {
    id: 'flatten',
    label: 'Flatten',
    note: 'block, cancel every working order and close every position, re-squaring until flat',
  },
];

export const WARN_CHOICES: readonly { id: NotifyChoice; label: string }[] = [
  { id: 'os', label: 'OS notification' },
  { id: 'sound', label: 'Toast with sound' },
  { id: 'in_app', label: 'In-app only' },
  { id: 'off', label: 'Off' },
];

/** The form as typed. */
export interface GuardFormText {
  enabled: boolean;
  limits: Record<GuardLimit, string>;
  action: GuardAction;
  /** 'day': until the next trading day; 'minutes': for `minutes`. */
  coolOff: 'day' | 'minutes';
  minutes: string;
  warn50: NotifyChoice;
  warn80: NotifyChoice;
}

export function guardFormText(r: GuardRules): GuardFormText {
  return {
    enabled: r.enabled,
    limits: {
      dailyLoss: String(r.dailyLoss),
      dailyProfit: String(r.dailyProfit),
      maxDrawdown: String(r.maxDrawdown),
      maxOrders: String(r.maxOrders),
      maxOpenPositions: String(r.maxOpenPositions),
      maxLossPerPosition: String(r.maxLossPerPosition),
    },
    action: r.action,
    coolOff: r.coolOffMinutes > 0 ? 'minutes' : 'day',
    minutes: r.coolOffMinutes > 0 ? String(r.coolOffMinutes) : '60',
    warn50: r.warn50,
    warn80: r.warn80,
  };
}

/** The longest cooling-off the core takes (a day). */
export const MAX_COOL_OFF_MINUTES = 24 * 60;

export type GuardFormRead = { ok: true; rules: GuardRules } | { ok: false; errors: FieldErrors };

/** The rules the form says, or each unreadable field's reason under `guard.<field>`. */
export function readGuardForm(t: GuardFormText): GuardFormRead {
  const read = readFields(GUARD_LIMITS, t.limits, 'guard');
  const errors: Record<string, string> = { ...read.errors };
  let coolOffMinutes = 0;
  if (t.coolOff === 'minutes') {
    const m = readWhole('Cooling-off time', t.minutes);
    if (!m.ok) errors['guard.coolOffMinutes'] = m.message;
    else if (m.value < 1 || m.value > MAX_COOL_OFF_MINUTES)
      errors['guard.coolOffMinutes'] =
        `Cooling-off time: from 1 to ${MAX_COOL_OFF_MINUTES} minutes (or until the next trading day)`;
    else coolOffMinutes = m.value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const v = read.values as Record<GuardLimit, number>;
  return {
    ok: true,
    rules: {
      enabled: t.enabled,
      dailyLoss: v.dailyLoss,
      dailyProfit: v.dailyProfit,
      maxDrawdown: v.maxDrawdown,
      maxOrders: v.maxOrders,
      maxOpenPositions: v.maxOpenPositions,
      maxLossPerPosition: v.maxLossPerPosition,
      action: t.action,
      coolOffMinutes,
      warn50: t.warn50,
      warn80: t.warn80,
    },
  };
}

/**
 * Main's refusal keyed for the form: `guard.<profileId>.<field>` becomes `guard.<field>`, so a reason
 * shows under the field it names; anything else stays as it came.
 */
export function guardErrors(errors: FieldErrors, profileId: string): FieldErrors {
  const out: Record<string, string> = {};
  const prefix = `guard.${profileId}.`;
  for (const [path, message] of Object.entries(errors)) {
    if (path.startsWith(prefix)) out[`guard.${path.slice(prefix.length)}`] = message;
    else if (path === `guard.${profileId}` || path === 'guard') out[''] = message;
    else out[path] = message;
  }
  return out;
}
