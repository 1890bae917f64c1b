// Which digests are due (pure; both runtimes share it): for each e-mail subscriber with a digest and
// each organization, the periods that have ended within the catch-up window, each with its deterministic
// id, so that building one twice (two ticks, a restart after the period's end) is refused as a copy.
// A digest is per organization: each organization's periods follow its own time zone.
import type { DigestConfig, SubscriberConfig } from '../../config/configSchema.js';
import { digestSubscribers } from '../../config/digestSubscribers.js';
import { digestEventId } from '../../events/eventId.js';
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { type DigestPeriod, periodsEndedBetween } from './digestPeriods.js';

/**
 * How far back ended periods are still built: a runner stopped for less than a day sends the digests of
 * the periods it missed when it starts again. Older periods are left out (their events stay in the log).
 */
export const DIGEST_CATCH_UP_MS = 24 * 3_600_000;

export interface DigestOrganization {
  id: string;
  name: string;
  timeZone: string;
}

export interface PlannedDigest extends DigestPeriod {
  digestId: string;
  subscriberId: string;
  organization: DigestOrganization;
  digest: DigestConfig;
}

/** Whether the subscriber gets this event in its digest rather than at once. */
export function isDigested(subscriber: SubscriberConfig, event: Pick<NotifierEvent, 'type'>): boolean {
  return (
    subscriber.type === 'email' &&
    subscriber.digest !== undefined &&
    subscriber.digest.types.some((type) => type === event.type)
  );
}

export function planDigests(input: {
  subscribers: readonly SubscriberConfig[];
  organizations: readonly DigestOrganization[];
  nowMs: number;
  /** @default DIGEST_CATCH_UP_MS */
  catchUpMs?: number;
}): PlannedDigest[] {
  const since = input.nowMs - (input.catchUpMs ?? DIGEST_CATCH_UP_MS);
  return digestSubscribers(input.subscribers).flatMap(({ subscriber, digest }) =>
    input.organizations.flatMap((organization) =>
      periodsEndedBetween(digest, organization.timeZone, since, input.nowMs).map((period) => ({
        ...period,
        digestId: digestEventId(subscriber.id, organization.id, period.startMs),
        subscriberId: subscriber.id,
        organization,
        digest,
      })),
    ),
  );
}
