// The digest use case both runtimes run on a timer: plan the periods that have ended, build each from the
// event log, and record it for its one subscriber. The record is keyed by the digest's deterministic id,
// so a second look (the next tick, a restart after the period's end) is refused as a copy and nothing is
// sent twice; an empty period records nothing.
import type { SubscriberConfig } from '../../config/configSchema.js';
import type { DigestEvent } from '../../events/digestEvent.js';
import type { StoredEvent } from '../../store/stateStore.js';
import { buildDigest } from './buildDigest.js';
import { type DigestOrganization, type PlannedDigest, planDigests } from './planDigests.js';

/** The event log as the digests need it, and where a built digest is recorded and queued. */
export interface DigestStore {
  /** The organization's events recorded at or after `sinceMs`. */
  listEvents(organizationId: string, sinceMs: number): Promise<StoredEvent[]>;
  /** Records the digest and queues it for its subscriber; false when that id is already recorded. */
  recordDigest(organizationId: string, digest: DigestEvent): Promise<boolean>;
}

export interface DigestTickResult {
  /** Digests recorded and queued by this tick. */
  queued: DigestEvent[];
  /** Periods looked at, whatever came of them; the caller may skip them next time. */
  examined: PlannedDigest[];
}

export async function queueDueDigests(input: {
  subscribers: readonly SubscriberConfig[];
  organizations: readonly DigestOrganization[];
  store: DigestStore;
  nowMs: number;
  /** Periods already examined (by id) in this process: not built again. */
  skip?: (digestId: string) => boolean;
}): Promise<DigestTickResult> {
  const plans = planDigests(input).filter((plan) => !input.skip?.(plan.digestId));
  const queued: DigestEvent[] = [];
  // One read of the log per organization, from the oldest period's start.
  const logs = new Map<string, Promise<StoredEvent[]>>();
  for (const plan of plans) {
    const organizationId = plan.organization.id;
    let log = logs.get(organizationId);
    if (log === undefined) {
      const since = Math.min(
        ...plans.filter((other) => other.organization.id === organizationId).map((other) => other.startMs),
      );
      log = input.store.listEvents(organizationId, since);
      logs.set(organizationId, log);
    }
    const subscriber = input.subscribers.find((candidate) => candidate.id === plan.subscriberId);
    const digest = buildDigest(plan, subscriber?.filter, await log);
    if (digest !== undefined && (await input.store.recordDigest(organizationId, digest))) queued.push(digest);
  }
  return { queued, examined: plans };
}
