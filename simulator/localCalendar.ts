// The calendar date in the simulator's time zone at a given instant, remembered per quarter hour:
// building an Intl formatter per call dominated the scenario's cost when the clock jumps days ahead.
import { calendarDateIn } from '../shared/time/calendarDate.js';

/** Every UTC offset in use is a whole number of quarter hours, so a local date never changes inside one. */
const QUARTER_HOUR_MS = 15 * 60_000;

export class LocalCalendar {
  private bucket = Number.NaN;
  private date = '';

  constructor(readonly timeZone: string) {}

  /** YYYY-MM-DD in the time zone at `ms`. */
  dateAt(ms: number): string {
    const bucket = Math.floor(ms / QUARTER_HOUR_MS);
    if (bucket !== this.bucket) {
      this.date = calendarDateIn(this.timeZone, ms);
      this.bucket = bucket;
    }
    return this.date;
  }
}
