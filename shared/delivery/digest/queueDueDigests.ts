// The digest use case both runtimes run on a timer: plan the periods that have ended, build each from the
// event log, split it to the runtime's size limits (splitDigest.ts), and record each part for its one
// subscriber. Each part is keyed by its deterministic id, so a second look (the next tick, a restart after
// the period's end) is refused as a copy and nothing is sent twice; an empty period records nothing. Each
// part is recorded on its own: one that fails (an unreadable log, a refused write) is reported and tried
// again on the next look, and never keeps another part or another subscriber's digest from going.
import type { SubscriberConfig } from '../../config/configSchema.js';
import type { DigestEvent } from '../../events/digestEvent.js';
import { digestEventId } from '../../events/eventId.js';
import type { StoredEvent } from '../../store/stateStore.js';
import { buildDigest } from './buildDigest.js';
import type { DigestStore } from './digestStore.js';
import { type DigestOrganization, type PlannedDigest, planDigests } from './planDigests.js';
import { type DigestSizeLimit, splitDigest } from './splitDigest.js';

/** A digest, or one part of it, that could not be recorded this time. */
export interface DigestFailure {
  /** The periods to look at again, by their digests' ids (all of the subscriber's, when the log failed). */
  periodDigestIds: string[];
  /** The digest's or part's id; absent when the organization's log could not be read. */
  digestId?: string;
  subscriberId: string;
  organizationId: string;
  /** "part 2 of 4", when the digest was split. */
  part?: string;
  /** Where it failed: reading the event log, building or splitting the digest, or claiming it under its id. */
  stage: 'read' | 'build' | 'claim';
  reason: string;
}

export interface DigestTickResult {
  /** Digests (or their parts) recorded and queued by this tick, in order. */
  queued: DigestEvent[];
  /** Periods looked at, whatever came of them; the caller may skip those without a failure next time. */
  examined: PlannedDigest[];
  /** What could not be recorded; the rest was recorded all the same. */
  failed: DigestFailure[];
}

export async function queueDueDigests(input: {
  subscribers: readonly SubscriberConfig[];
  organizations: readonly DigestOrganization[];
  store: DigestStore;
  nowMs: number;
  /** What each digest message must fit (the runtime's transport and store). */
  limits: readonly DigestSizeLimit[];
  /** Periods already examined (by id) in this process: not built again. */
  skip?: (digestId: string) => boolean;
}): Promise<DigestTickResult> {
  const plans = planDigests(input).filter((plan) => !input.skip?.(plan.digestId));
  const queued: DigestEvent[] = [];
  const failed: DigestFailure[] = [];
  // One read of the log per organization, from the oldest period's start.
  const logs = new Map<string, Promise<StoredEvent[]>>();
  // A log that cannot be read fails each subscriber's digests of that organization once, not per period.
  const unread = new Map<string, DigestFailure>();
  for (const plan of plans) {
    const organizationId = plan.organization.id;
    const about = { periodDigestIds: [plan.digestId], subscriberId: plan.subscriberId, organizationId };
    let log = logs.get(organizationId);
    if (log === undefined) {
      const since = Math.min(
        ...plans.filter((other) => other.organization.id === organizationId).map((other) => other.startMs),
      );
      log = input.store.listEvents(organizationId, since);
      logs.set(organizationId, log);
    }
    let events: StoredEvent[];
    try {
      events = await log;
    } catch (error) {
      const key = `${plan.subscriberId}\n${organizationId}`;
      const known = unread.get(key);
      if (known === undefined) {
        const failure: DigestFailure = {
          ...about,
          stage: 'read',
          reason: `the event log could not be read: ${reasonOf(error)}`,
        };
        unread.set(key, failure);
        failed.push(failure);
      } else known.periodDigestIds.push(plan.digestId);
      continue;
    }
    let parts: DigestEvent[];
    try {
      const subscriber = input.subscribers.find((candidate) => candidate.id === plan.subscriberId);
      const digest = buildDigest(plan, subscriber?.filter, events);
      parts = digest === undefined ? [] : splitDigest(digest, splitOptions(plan, input));
    } catch (error) {
      failed.push({ ...about, digestId: plan.digestId, stage: 'build', reason: reasonOf(error) });
      continue;
    }
    for (const part of parts) {
      try {
        if (await input.store.recordDigest(organizationId, part)) queued.push(part);
      } catch (error) {
        failed.push({
          ...about,
          digestId: part.id,
          ...partLabel(part),
          stage: 'claim',
          reason: reasonOf(error),
        });
      }
    }
  }
  return { queued, examined: plans, failed };
}

function splitOptions(plan: PlannedDigest, input: { limits: readonly DigestSizeLimit[] }) {
  return {
    limits: input.limits,
    partId: (number: number) => digestEventId(plan.subscriberId, plan.organization.id, plan.startMs, number),
  };
}

/** "part 2 of 4" for a part of a split digest; nothing for a whole one. */
export function partLabel(message: DigestEvent): { part?: string } {
  const { part } = message.data;
  return part === undefined ? {} : { part: `part ${part.number} of ${part.of}` };
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
