// Normalizes the two `pickup_at` forms the spec shows (YYYY-MM-DD and DD/MM/YY) to YYYY-MM-DD,
// so that a change of form on the server is never mistaken for a change of the order.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/;
const DAY_MONTH_SHORT_YEAR = /^(\d{2})\/(\d{2})\/(\d{2})$/;

/** Returns the date as YYYY-MM-DD, or undefined when the text is not a real calendar date. */
export function normalizePickupDate(text: string): string | undefined {
  const trimmed = text.trim();
  const iso = ISO_DATE.exec(trimmed);
  if (iso) return calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const short = DAY_MONTH_SHORT_YEAR.exec(trimmed);
  // A two-digit year can only be read as 20YY: the service was first released in 2025.
  if (short) return calendarDate(2000 + Number(short[3]), Number(short[2]), Number(short[1]));
  return undefined;
}

function calendarDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return date.toISOString().slice(0, 10);
}
