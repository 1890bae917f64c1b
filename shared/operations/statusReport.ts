// What `meal-notifier status` reports, locally (from the state file) and for a deployed stack (from its
// table and queues): per organization its polling health, recent events and the orders whose records stay
// unreadable, per subscriber its queued and dead deliveries. The organizations' part is read the same way
// from either store.
import type { OrganizationConfig } from '../config/configSchema.js';
import { type UnreadableOrders, unreadableFor } from '../detect/unreadableOrders.js';
import type { PollState } from '../store/pollState.js';
import type { StateStore } from '../store/stateStore.js';

export interface OrganizationStatus {
  id: string;
  name: string;
  /** The config's shortest gap between cycles. */
  pollIntervalSeconds: number;
  /** ISO 8601, or null when never. */
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  /** When the pace has the next cycle due (ISO 8601); null before the first cycle. */
  nextPollAt: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  /**
   * Since when the API has rejected the organization's token (ISO 8601): it is marked "token rejected: put
   * a new token" and tried again every few minutes; null when it has not.
   */
  tokenRejectedSince: string | null;
  snapshots: number;
  eventsLastHour: number;
  eventsLastDay: number;
  /** Orders whose record has been skipped as malformed for over an hour: their transitions go unseen. */
  unreadableOrders: UnreadableOrderStatus[];
  /**
   * Establishments whose record the last read of GET /establishments skipped as malformed: their closing
   * times are unknown, so the cadence is fixed and their prep summaries are not sent.
   */
  unreadableEstablishments: UnreadableEstablishmentStatus[];
}

export interface UnreadableEstablishmentStatus {
  /** Absent when the record had no readable uuid. */
  uuid?: string;
  /** ISO 8601: the read that skipped it. */
  readAt: string;
  page: number;
  /** What was wrong with it: the field. */
  detail: string;
  /** What its unknown closing times cost, in one clause. */
  consequence: string;
}

/** Why an establishment skipped by the last read is missed. */
export const UNREADABLE_ESTABLISHMENT_CONSEQUENCE =
  'closing times unknown: cadence fixed, no prep summary for it; its orders are still polled';

export interface UnreadableOrderStatus {
  uuid: string;
  /** ISO 8601: first found unreadable, and last. */
  since: string;
  lastSeenAt: string;
  listing: string;
  page: number;
  detail: string;
}

export interface SubscriberStatus {
  id: string;
  /** undefined for a subscriber the state knows but the config no longer has. */
  type: string | undefined;
  enabledInConfig: boolean;
  /** Set when a receiver answered "gone" and delivery to it stopped. */
  disabled: { since: string; reason: string } | null;
  /** Set while only a person can fix it (a new token, an invitation to the channel); its deliveries are kept. */
  paused?: { since: string; reason: string } | null;
  /**
   * null when not known: on AWS, an e-mail subscriber (SNS sends it, no queue), a Slack or webhook one
   * (its channel's queue is shared: `queuedOnChannel`), or a queue that did not answer.
   */
  queued: number | null;
  /** On AWS, a Slack or webhook subscriber's: the channel whose shared queue holds its deliveries. */
  queuedOnChannel?: string;
  dead: number | null;
  /** A person's `catchUpAfter`, in seconds; absent for a subscriber that gets every event however late. */
  catchUpAfterSeconds?: number;
  /**
   * The oldest change still queued for it (ISO 8601): how far behind it is; null when nothing is queued,
   * absent when not known (on AWS).
   */
  behindSince?: string | null;
}

interface StatusReportBase {
  organizations: OrganizationStatus[];
  subscribers: SubscriberStatus[];
}

export interface LocalStatusReport extends StatusReportBase {
  statePath: string;
  /** False before the first poll: everything else is then empty. */
  stateExists: boolean;
}

export interface StackStatusReport extends StatusReportBase {
  stack: string;
  tableName: string;
  /** False for a stack deployed with `-c polling=off`: nothing is polled, by request. */
  pollingEnabled: boolean;
  /**
   * Each Slack or webhook channel's one delivery queue: how many deliveries wait on it, every subscriber's
   * of that channel together (SQS counts no attribute); null when it did not answer.
   */
  channels: ChannelQueueStatus[];
  /** Stream batches the publisher gave up on (its failure queue's depth); null when not known. */
  publisherFailures: number | null;
  /** What could not be read, one line each: the report is incomplete there. */
  problems: string[];
}

export type StatusReport = LocalStatusReport | StackStatusReport;

export interface ChannelQueueStatus {
  /** The channel type: `slack` or `webhook`. */
  channel: string;
  /** The config's subscribers of that type whose deliveries share it. */
  subscribers: string[];
  queued: number | null;
}

/** What the organizations' part reads: the same calls on SQLite and on DynamoDB. */
export type StatusStore = Pick<StateStore, 'loadPollState' | 'loadSnapshots' | 'listEvents'>;

const HOUR_MS = 3_600_000;
/** A record malformed for a cycle or two may be a deployment on the API side; an hour of it is a problem. */
const UNREADABLE_FOR_MS = HOUR_MS;

/** What an organization's status says of its polling: read from its poll state alone. */
export type PollHealthStatus = Pick<
  OrganizationStatus,
  | 'id'
  | 'name'
  | 'pollIntervalSeconds'
  | 'lastSuccessAt'
  | 'lastAttemptAt'
  | 'nextPollAt'
  | 'consecutiveFailures'
  | 'lastError'
  | 'tokenRejectedSince'
>;

/** The polling part of an organization's status, from its poll state (none: never polled). */
export function pollHealthOf(
  organization: Pick<OrganizationConfig, 'id' | 'name' | 'pollIntervalSeconds'>,
  state: Pick<PollState, 'pace' | 'health'> | undefined,
): PollHealthStatus {
  const { id, name, pollIntervalSeconds } = organization;
  return {
    id,
    name,
    pollIntervalSeconds,
    lastSuccessAt: isoOrNull(state?.health.lastSuccessAt),
    lastAttemptAt: isoOrNull(state?.health.lastAttemptAt),
    nextPollAt: isoOrNull(state?.pace.nextPollAt),
    consecutiveFailures: state?.health.consecutiveFailures ?? 0,
    lastError: state?.health.lastError ?? null,
    tokenRejectedSince: isoOrNull(state?.health.tokenRejectedAt),
  };
}

/** The organization's status; all empty without a store (nothing polled yet). */
export async function organizationStatus(
  organization: Pick<OrganizationConfig, 'id' | 'name' | 'pollIntervalSeconds'>,
  store: StatusStore | undefined,
  nowMs: number,
): Promise<OrganizationStatus> {
  const { id } = organization;
  const state = await store?.loadPollState(id);
  const lastDay = (await store?.listEvents(id, nowMs - 24 * HOUR_MS)) ?? [];
  return {
    ...pollHealthOf(organization, state),
    snapshots: (await store?.loadSnapshots(id))?.size ?? 0,
    eventsLastHour: lastDay.filter((stored) => stored.recordedAt >= nowMs - HOUR_MS).length,
    eventsLastDay: lastDay.length,
    unreadableOrders: unreadableOrderStatuses(state?.unreadable ?? {}, nowMs),
    unreadableEstablishments: (state?.establishments?.unreadable ?? []).map((record) => ({
      ...(record.uuid === undefined ? {} : { uuid: record.uuid }),
      readAt: new Date(state?.establishments?.fetchedAt ?? nowMs).toISOString(),
      page: record.page,
      detail: record.detail,
      consequence: UNREADABLE_ESTABLISHMENT_CONSEQUENCE,
    })),
  };
}

function unreadableOrderStatuses(orders: UnreadableOrders, nowMs: number): UnreadableOrderStatus[] {
  return unreadableFor(orders, UNREADABLE_FOR_MS, nowMs).map((order) => ({
    uuid: order.uuid,
    since: new Date(order.since).toISOString(),
    lastSeenAt: new Date(order.lastSeenAt).toISOString(),
    listing: order.listing,
    page: order.page,
    detail: order.detail,
  }));
}

function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}
