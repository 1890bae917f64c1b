// How closely an organization is watched right now (pure): hot around its establishments' closing times,
// normal on their working days, cold on days none works; and when that next changes, so that a long cold
// gap never runs past the start of a hot window.
import { addDays, calendarDateIn } from '../time/calendarDate.js';
import { zonedInstant } from '../time/zonedTime.js';
import { closingsOn, type EstablishmentSchedule, worksOn } from './closingTimes.js';

/**
 * `fixed`: the organization asked for it, or its establishments are not known yet, or a polled one's record
 * could not be read.
 */
export type CadenceMode = 'hot' | 'normal' | 'cold' | 'fixed';

/** How far either side of a closing time the organization is hot. */
export const HOT_MARGIN_MS = 30 * 60_000;
/** The floor of a hot cycle's gap: the config's own least pollIntervalSeconds. */
export const HOT_MIN_INTERVAL_MS = 2_000;
/**
 * A hot cycle comes up to this many times as often as a normal one, as far as the budget allows: at the
 * local 10 s that is the budget's own pace, at AWS's 60 s every 10 s. Uncapped, the hot windows of a
 * working week cost more than its quiet days save, and a week under auto would cost more than fixed.
 */
export const HOT_SPEEDUP = 6;
/** How far ahead the next change is looked for: past a week the schedule repeats. */
const LOOKAHEAD_DAYS = 8;

export interface CadenceInput {
  cadence: 'auto' | 'fixed';
  /** The establishments cache's records; null until it is first filled. */
  establishments: readonly EstablishmentSchedule[] | null;
  /**
   * Establishments the cache's last read could not read (uuid when readable): their closing times are
   * unknown, so when any of them is polled (or may be: no uuid) the cadence is fixed.
   */
  unreadable?: readonly { uuid?: string | undefined }[] | undefined;
  /** Only these establishment uuids count, when the organization polls only them. */
  polled?: readonly string[] | undefined;
  timeZone: string;
  now: number;
  /** The gap on working days, outside hot windows: pollIntervalSeconds. */
  normalIntervalMs: number;
  /** The gap on days no establishment works, the sweep included. */
  coldIntervalMs: number;
}

export interface CadencePlan {
  mode: CadenceMode;
  /** The shortest gap to the next cycle: the pace may make it longer, never shorter. */
  minIntervalMs: number;
  /** When the mode next changes (epoch ms), if it ever does: the next cycle is due by then. */
  changesAt: number | null;
}

export function planCadence(input: CadenceInput): CadencePlan {
  const fixed: CadencePlan = { mode: 'fixed', minIntervalMs: input.normalIntervalMs, changesAt: null };
  if (input.cadence === 'fixed' || input.establishments === null) return fixed;
  const polled = input.polled === undefined ? undefined : new Set(input.polled.map(lower));
  const unknown = (input.unreadable ?? []).some(
    ({ uuid }) => polled === undefined || uuid === undefined || polled.has(lower(uuid)),
  );
  // Without one watched establishment's closing times, a cold or normal day may be its hot one.
  if (unknown) return fixed;
  const establishments = input.establishments.filter(
    (establishment) => polled === undefined || polled.has(lower(establishment.uuid)),
  );
  // A cache that names no establishment tells nothing about the week: better today's pace than a cold one.
  if (establishments.length === 0) return fixed;

  const schedule = new Schedule(establishments, input.timeZone);
  const mode = schedule.modeAt(input.now);
  return {
    mode,
    minIntervalMs:
      mode === 'hot'
        ? Math.min(
            input.normalIntervalMs,
            Math.max(HOT_MIN_INTERVAL_MS, input.normalIntervalMs / HOT_SPEEDUP),
          )
        : mode === 'cold'
          ? Math.max(input.coldIntervalMs, input.normalIntervalMs)
          : input.normalIntervalMs,
    changesAt: schedule.nextChange(input.now, mode),
  };
}

/** The hot windows and working days of a set of establishments, as instants in the organization's zone. */
class Schedule {
  readonly #windows = new Map<string, Array<[number, number]>>();

  constructor(
    readonly establishments: readonly EstablishmentSchedule[],
    readonly timeZone: string,
  ) {}

  modeAt(at: number): Exclude<CadenceMode, 'fixed'> {
    const today = calendarDateIn(this.timeZone, at);
    // A closing just after midnight makes the evening before hot, whatever that day is.
    for (const date of [addDays(today, -1), today, addDays(today, 1)]) {
      if (this.#windowsOn(date).some(([start, end]) => at >= start && at <= end)) return 'hot';
    }
    return this.establishments.some((establishment) => worksOn(establishment, today)) ? 'normal' : 'cold';
  }

  /** The first instant after `now` at which the mode is no longer `mode`. */
  nextChange(now: number, mode: CadenceMode): number | null {
    const today = calendarDateIn(this.timeZone, now);
    const candidates: number[] = [];
    for (let offset = -1; offset <= LOOKAHEAD_DAYS; offset += 1) {
      const date = addDays(today, offset);
      candidates.push(zonedInstant(date, '00:00:00', this.timeZone));
      // A window's end is the last hot instant: the change comes just after it.
      for (const [start, end] of this.#windowsOn(date)) candidates.push(start, end + 1);
    }
    const ahead = [...new Set(candidates)].filter((at) => at > now).sort((a, b) => a - b);
    return ahead.find((at) => this.modeAt(at) !== mode) ?? null;
  }

  #windowsOn(date: string): Array<[number, number]> {
    let windows = this.#windows.get(date);
    if (!windows) {
      windows = closingsOn(this.establishments, date, this.timeZone).map(({ closesAt }): [number, number] => [
        closesAt - HOT_MARGIN_MS,
        closesAt + HOT_MARGIN_MS,
      ]);
      this.#windows.set(date, windows);
    }
    return windows;
  }
}

function lower(uuid: string): string {
  return uuid.toLowerCase();
}
