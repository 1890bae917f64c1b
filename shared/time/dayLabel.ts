// A pickup date as people in a kitchen say it: "Tue 24 Nov". Spelled out here rather than through Intl,
// whose output for the same options differs between ICU versions (commas, dots), so every runtime and
// every test agrees on the text.

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "2026-11-24" → "Tue 24 Nov"; anything that is not a real YYYY-MM-DD date is returned as given. */
export function dayLabel(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  const at = new Date(`${date}T00:00:00Z`);
  // Date rolls 2026-02-30 over into March; such a date is not one, so it is shown as written.
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== date) return date;
  return `${WEEKDAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}`;
}
