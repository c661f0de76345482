// A price change as traders read it: signed (+4.55, -0.40), at the instrument's tick; zero unsigned.
import { formatPrice } from '@shared/format.js';

export function formatChange(value: number, tickSize?: number): string {
  const text = formatPrice(value, tickSize);
  return value > 0 && /[1-9]/.test(text) ? `+${text}` : text;
}
