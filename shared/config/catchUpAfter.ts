// A human subscriber's `catchUpAfter`: how late an order event may be before it is folded into a catch-up
// message instead of being sent. Written like the digest's `every`, a number and a unit: "15m", "2h", "1d".

export const DEFAULT_CATCH_UP_AFTER = '15m';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MIN_MS = UNIT_MS.m;
const MAX_MS = 7 * UNIT_MS.d;

/** Milliseconds of a written duration ("15m", "2h", "1d"), or undefined when it is not one from 1m to 7d. */
export function parseCatchUpAfter(text: string): number | undefined {
  const match = /^([1-9]\d{0,4})([mhd])$/.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms >= MIN_MS && ms <= MAX_MS ? ms : undefined;
}

/** A subscriber as far as catch-ups go (the config's SubscriberConfig, read by its shape). */
export interface CatchUpSubscriber {
  readonly type: string;
  readonly enabled: boolean;
  readonly catchUpAfter?: string | false | undefined;
}

/**
 * The subscriber's catch-up threshold in milliseconds; undefined when it takes every event however late:
 * a webhook (machines get every event), or a person who set `catchUpAfter: false`. Slack and e-mail
 * subscribers that leave it out have DEFAULT_CATCH_UP_AFTER.
 */
export function catchUpAfterMs(subscriber: CatchUpSubscriber): number | undefined {
  if (subscriber.type !== 'slack' && subscriber.type !== 'email') return undefined;
  const written = subscriber.catchUpAfter ?? DEFAULT_CATCH_UP_AFTER;
  return written === false ? undefined : parseCatchUpAfter(written);
}

/** The distinct thresholds (ms, ascending) of the enabled subscribers that get catch-ups. */
export function catchUpThresholds(subscribers: readonly CatchUpSubscriber[]): number[] {
  const thresholds = subscribers
    .filter((subscriber) => subscriber.enabled)
    .map(catchUpAfterMs)
    .filter((ms): ms is number => ms !== undefined);
  return [...new Set(thresholds)].sort((a, b) => a - b);
}
