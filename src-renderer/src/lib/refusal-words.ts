// Who or what stopped a send, in the words that start its outcome line: the regular ticket and every
// mode say it alike (nothing left OrderDesk in any of these cases), and a gateway's message with its
// rupee amounts grouped as the desk writes money.
import type { IpcErrorKind } from '@contract';
import { formatMoney } from '@shared/format.js';

export function refusalLead(kind: IpcErrorKind): string {
  switch (kind) {
    case 'risk':
      return 'Refused by your risk limits';
    case 'duplicate':
      return 'Held back by the duplicate guard';
    // The same order's earlier intent is still in doubt: the message names it and its time.
    case 'unresolved_duplicate':
      return 'Held back, not sent';
    case 'invalid_input':
      return 'Refused before sending';
    // The gateway could not be reached (or did not answer in time) before anything was sent.
    case 'network':
    case 'timeout':
      return 'Not sent, the gateway is unreachable';
    case 'no_key':
    case 'secret_store':
      return 'Not sent';
    // The journal could not record it (disk full, read-only, damaged): the message says which file.
    case 'storage':
      return 'Not sent, OrderDesk could not record it';
    default:
      return 'Refused by the gateway';
  }
}

/** A hold the trader may overrule deliberately: "Send anyway" sends it again with `confirmDuplicate`. */
export function canSendAnyway(kind: IpcErrorKind): boolean {
  return kind === 'duplicate' || kind === 'unresolved_duplicate';
}

/** Labels a gateway puts before an amount in rupees ("Required: 18048000.00"). */
const AMOUNT_LABELS = [
  'required',
  'available',
  'shortage',
  'margin',
  'margin required',
  'required margin',
  'available margin',
  'available cash',
  'order value',
  'value',
  'cash',
  'funds',
  'balance',
];
const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
/** A number ends at neither a digit, a decimal point nor a letter (not "18048000.00.1", not "12ab"). */
const END = String.raw`(?![\d.,]*\d|[A-Za-z_])`;
/** ₹ (or Rs, INR) and a plain number, the sign before or after the symbol. */
const RUPEES = new RegExp(String.raw`(?<![\w.])(-?)(₹|Rs\.?|INR)\s?(${NUMBER})${END}`, 'g');
/** A known label, a colon or "of", then a plain number with no ₹. */
const LABELLED = new RegExp(
  String.raw`\b(${AMOUNT_LABELS.join('|')})(\s*(?::|of|is)\s*)(${NUMBER})${END}`,
  'gi',
);

/**
 * A gateway's message with its rupee amounts in en-IN grouping ("Required: ₹1,80,48,000.00" for
 * "Required: 18048000.00"): amounts after ₹, Rs or INR, and after a label that names money
 * (required, available, shortage, margin, value, cash, funds, balance). Order ids, symbols with
 * digits, times and dates carry no such mark, so they are left as they are; an amount already grouped
 * (with commas) is left too.
 */
export function groupAmounts(message: string): string {
  const money = (sign: string, n: string) => formatMoney(`${sign}${n}`);
  return message
    .replace(RUPEES, (_m, sign: string, _cur: string, n: string) => money(sign, n))
    .replace(LABELLED, (_m, label: string, sep: string, n: string) => `${label}${sep}${money('', n)}`);
}
