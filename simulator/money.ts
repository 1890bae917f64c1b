// Money objects of the API (`amount` a digit string, `formatted` with the symbol), built from integer
// cents so that sums never pick up floating-point noise.
import type { Money } from '../shared/api/schemas.js';

export const CURRENCY = 'EUR';
const SYMBOLS: Record<string, string> = { EUR: '€' };

export function money(cents: number, currency = CURRENCY): Money {
  const amount = (cents / 100).toFixed(2);
  return { amount, currency, formatted: `${SYMBOLS[currency] ?? `${currency} `}${amount}` };
}

/** The integer cents of a money object this module built. */
export function centsOf(value: Money): number {
  return Math.round(Number(value.amount) * 100);
}
