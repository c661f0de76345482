// Reading the Settings pane's number fields as a trader types them (`10,00,000`, `₹ 5000.50`, `2.5`)
// into the values settings.update takes, with the reason in words when a field cannot be read. The
// limits themselves (bounds) are main's to judge: its refusal names the field and shows beside it.
import { parseDecimal, toNumber } from '@shared/decimal.js';
import { formatMoney } from '@shared/format.js';

export type FieldRead<T> = { ok: true; value: T } | { ok: false; message: string };

/** en-IN grouping commas, a rupee sign and spaces are how amounts are written: they are dropped. */
const clean = (text: string): string => text.replace(/[\s,₹]/g, '');

/** A rupee amount (at most two decimals). */
export function readAmount(label: string, text: string): FieldRead<number> {
  const t = clean(text);
  if (t === '') return { ok: false, message: `${label}: enter an amount in rupees` };
  const d = /^\d+(\.\d*)?$|^\.\d+$/.test(t) ? parseDecimal(t) : undefined;
  if (!d)
    return {
      ok: false,
      message: `${label}: "${text.trim()}" is not an amount (write it as 5000 or 5,000.50)`,
    };
  if (d.scale > 2 && d.int % 10n ** BigInt(d.scale - 2) !== 0n)
    return { ok: false, message: `${label}: at most two decimals (paise)` };
  return { ok: true, value: toNumber(d) };
}

/** A whole number (quantities, counts). */
export function readWhole(label: string, text: string): FieldRead<number> {
  const t = clean(text);
  if (t === '') return { ok: false, message: `${label}: enter a whole number` };
  if (!/^\d+$/.test(t)) return { ok: false, message: `${label}: "${text.trim()}" is not a whole number` };
  return { ok: true, value: Number(t) };
}

/** A percentage (the `%` sign is optional). */
export function readPercent(label: string, text: string): FieldRead<number> {
  const t = clean(text).replace(/%$/, '');
  if (t === '') return { ok: false, message: `${label}: enter a percentage` };
  const d = /^\d+(\.\d*)?$|^\.\d+$/.test(t) ? parseDecimal(t) : undefined;
  if (!d)
    return { ok: false, message: `${label}: "${text.trim()}" is not a percentage (write it as 5 or 2.5)` };
  return { ok: true, value: toNumber(d) };
}

/** Seconds as typed (`2`, `1.5`) → whole milliseconds. */
export function readSeconds(label: string, text: string): FieldRead<number> {
  const t = clean(text).replace(/s$/i, '');
  if (t === '') return { ok: false, message: `${label}: enter seconds` };
  const d = /^\d+(\.\d{0,3})?$/.test(t) ? parseDecimal(t) : undefined;
  if (!d)
    return {
      ok: false,
      message: `${label}: "${text.trim()}" is not a number of seconds (at most 3 decimals)`,
    };
  return { ok: true, value: Math.round(toNumber(d) * 1000) };
}

/** An optional field: empty means "use the general limit". */
export function readOptional<T>(
  read: (label: string, text: string) => FieldRead<T>,
  label: string,
  text: string,
) {
  return clean(text) === '' ? ({ ok: true, value: undefined } as const) : read(label, text);
}

/** One number field of a settings form: its key, its label (the reason's first word) and its reader. */
export interface NumberField<K extends string> {
  id: K;
  label: string;
  read: (label: string, text: string) => FieldRead<number>;
}

/** A form's number fields read from their texts: the values read, and each unreadable field's reason
 *  under `<section>.<id>` (the key main's refusals use, so both show beside the field). */
export function readFields<K extends string>(
  fields: readonly NumberField<K>[],
  text: Record<K, string>,
  section: string,
): { values: Partial<Record<K, number>>; errors: Record<string, string> } {
  const values: Partial<Record<K, number>> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const r = f.read(f.label, text[f.id]);
    if (r.ok) values[f.id] = r.value;
    else errors[`${section}.${f.id}`] = r.message;
  }
  return { values, errors };
}

/** An amount field's note: the amount as the limit reads it (₹50,00,000.00) once it reads above 0,
 *  else `note`. */
export function amountNote(text: string, note: string): string {
  const r = readAmount('', text);
  return r.ok && r.value > 0 ? formatMoney(r.value) : note;
}
