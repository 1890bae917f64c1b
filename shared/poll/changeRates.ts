// What a cycle found of pending's changes, to today's orders and to other days' (edits among each), with the
// time each was found over: what today first paces the rest of the window and today's whole walk by
// (pacePoll.ts). Counts and times are summed with decay, and a rate is their ratio: the rest's dates are
// walked seldom and each sees a change or none, so an average of per-cycle rates would swing with each one.
import { type Coverage, pendingReadAt } from '../detect/coverage.js';
import type { PlannedWalk } from '../detect/listingSpec.js';
import type { ChangeRates } from '../detect/pacePoll.js';
import { isOrderEvent, type NotifierEvent } from '../events/notifierEvent.js';
import type { PaceState } from '../store/pollState.js';
import { addDays } from '../time/calendarDate.js';

const MINUTE_MS = 60_000;
/** The sums forget the past over about this many minutes of samples: a lunch's mix, not a day's. */
const HORIZON_MINUTES = 5;
/** The minutes of samples, today's and elsewhere, before the rates stand for the mix. */
const KNOWN_AFTER_MINUTES = 1;

/** The decayed sums the poll state keeps (`pace.changes`). */
type ChangeSums = NonNullable<PaceState['changes']>;

/** One cycle's sample: changes found, and over how many minutes (the rest's scaled to all of it). */
export interface ChangeSample {
  today: number;
  todayEdits: number;
  todayMinutes: number;
  /** Undefined when the cycle walked no other day than today, or none walked before. */
  elsewhere?: { changes: number; edits: number; minutes: number } | undefined;
}

export interface ChangeSampleInput {
  today: string;
  /** When the cycle began, and the one before it (null if none): today's listing is read every cycle. */
  startedAt: number;
  previousCycleAt: number | null;
  /** The pending walks of the cycle, and the coverage before it: how long their other days went unwalked. */
  walks: readonly PlannedWalk[];
  coverage: Coverage;
  /**
   * The share of the other days' pending orders those walks held (a part of the rest of the window holds a
   * few of its dates): the changes found there stand for that share of all changes elsewhere.
   */
  otherDaysShare: number;
}

export function changeSample(
  events: readonly NotifierEvent[],
  input: ChangeSampleInput,
): ChangeSample | undefined {
  if (input.previousCycleAt === null || input.startedAt <= input.previousCycleAt) return undefined;
  // Archivings are the sweep's to see, whatever the day: they say nothing of where pending changes.
  const orders = events.filter(isOrderEvent).filter((event) => event.type !== 'order.archived');
  const todays = orders.filter((event) => event.data.order.pickup_date === input.today);
  const edits = (events: typeof orders) => events.filter((event) => event.type === 'order.updated').length;
  const otherDays = unwalkedFor(input);
  return {
    today: todays.length,
    todayEdits: edits(todays),
    todayMinutes: (input.startedAt - input.previousCycleAt) / MINUTE_MS,
    ...(otherDays === undefined || input.otherDaysShare <= 0
      ? {}
      : {
          elsewhere: {
            changes: orders.length - todays.length,
            edits: edits(orders) - edits(todays),
            minutes: (otherDays * input.otherDaysShare) / MINUTE_MS,
          },
        }),
  };
}

/** The sums with this cycle's sample in; unchanged without one, absent until a change was found. */
export function addChangeSample(
  mix: ChangeSums | undefined,
  sample: ChangeSample | undefined,
): ChangeSums | undefined {
  if (sample === undefined) return mix;
  if (mix === undefined && sample.today + (sample.elsewhere?.changes ?? 0) === 0) return undefined;
  const decay = (minutes: number) => Math.exp(-minutes / HORIZON_MINUTES);
  const keepToday = decay(sample.todayMinutes);
  const keepElsewhere = decay(sample.elsewhere?.minutes ?? 0);
  return {
    today: (mix?.today ?? 0) * keepToday + sample.today,
    todayEdits: (mix?.todayEdits ?? 0) * keepToday + sample.todayEdits,
    todayMinutes: (mix?.todayMinutes ?? 0) * keepToday + sample.todayMinutes,
    elsewhere: (mix?.elsewhere ?? 0) * keepElsewhere + (sample.elsewhere?.changes ?? 0),
    elsewhereEdits: (mix?.elsewhereEdits ?? 0) * keepElsewhere + (sample.elsewhere?.edits ?? 0),
    elsewhereMinutes: (mix?.elsewhereMinutes ?? 0) * keepElsewhere + (sample.elsewhere?.minutes ?? 0),
  };
}

/**
 * The rates per minute the sums say; undefined until they hold a minute of each: after a start the first
 * samples elsewhere are few and mostly empty, and a rate of 0 would stretch the rest's period to its
 * longest while it is least known (the mix is then taken as even, pacePoll.ts). States written before the
 * times were kept hold a count a cycle: read as a minute's, until the next samples outweigh them.
 */
export function changeRates(mix: ChangeSums): ChangeRates | undefined {
  if ((mix.todayMinutes ?? 1) < KNOWN_AFTER_MINUTES || (mix.elsewhereMinutes ?? 1) < KNOWN_AFTER_MINUTES) {
    return undefined;
  }
  const per = (changes: number, minutes: number | undefined) =>
    minutes === undefined ? changes : minutes > 0 ? changes / minutes : 0;
  return {
    today: per(mix.today, mix.todayMinutes),
    todayEdits: per(mix.todayEdits ?? 0, mix.todayMinutes),
    elsewhere: per(mix.elsewhere, mix.elsewhereMinutes),
    elsewhereEdits: per(mix.elsewhereEdits ?? 0, mix.elsewhereMinutes),
  };
}

/**
 * How long the other days the cycle walked had gone unread (walked whole or checked), at the longest: what
 * their changes built up over.
 */
function unwalkedFor(input: ChangeSampleInput): number | undefined {
  let oldest: number | undefined;
  for (const { listing } of input.walks) {
    for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1)) {
      if (date === input.today) continue;
      const at = pendingReadAt(input.coverage, date, listing.establishment);
      if (at === undefined) return undefined;
      oldest = Math.min(oldest ?? at, at);
    }
  }
  return oldest === undefined || oldest >= input.startedAt ? undefined : input.startedAt - oldest;
}
