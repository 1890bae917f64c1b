// What `meal-notifier status` reports, read from the state file alone (no secrets, no request): per
// organization its polling health, recent events and the orders whose records stay unreadable, per
// subscriber its queued and dead deliveries.
import { existsSync } from 'node:fs';
import type { Config } from '../../shared/config/configSchema.js';
import { type UnreadableOrders, unreadableFor } from '../../shared/detect/unreadableOrders.js';
import type { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';

export interface OrganizationStatus {
  id: string;
  name: string;
  /** ISO 8601, or null when never. */
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  snapshots: number;
  eventsLastHour: number;
  eventsLastDay: number;
  /** Orders whose record has been skipped as malformed for over an hour: their transitions go unseen. */
  unreadableOrders: UnreadableOrderStatus[];
}

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
  /** undefined for a subscriber the state file knows but the config no longer has. */
  type: string | undefined;
  enabledInConfig: boolean;
  /** Set when a receiver answered "gone" and delivery to it stopped. */
  disabled: { since: string; reason: string } | null;
  queued: number;
  dead: number;
}

export interface StatusReport {
  statePath: string;
  /** False before the first poll: everything else is then empty. */
  stateExists: boolean;
  organizations: OrganizationStatus[];
  subscribers: SubscriberStatus[];
}

const HOUR_MS = 3_600_000;
/** A record malformed for a cycle or two may be a deployment on the API side; an hour of it is a problem. */
const UNREADABLE_FOR_MS = HOUR_MS;

/** Whether the state file exists, checked before opening it: opening would create it. */
export function stateFileExists(statePath: string): boolean {
  return existsSync(statePath);
}

export async function collectStatus(
  config: Config,
  statePath: string,
  store: SqliteStateStore | undefined,
  nowMs: number,
): Promise<StatusReport> {
  const organizations: OrganizationStatus[] = [];
  for (const { id, name } of config.organizations) {
    const state = await store?.loadPollState(id);
    const lastDay = (await store?.listEvents(id, nowMs - 24 * HOUR_MS)) ?? [];
    organizations.push({
      id,
      name,
      lastSuccessAt: isoOrNull(state?.lastSuccessAt),
      lastAttemptAt: isoOrNull(state?.lastAttemptAt),
      consecutiveFailures: state?.consecutiveFailures ?? 0,
      lastError: state?.lastError ?? null,
      snapshots: (await store?.loadSnapshots(id))?.size ?? 0,
      eventsLastHour: lastDay.filter((stored) => stored.recordedAt >= nowMs - HOUR_MS).length,
      eventsLastDay: lastDay.length,
      unreadableOrders: unreadableOrderStatuses(state?.unreadable ?? {}, nowMs),
    });
  }
  return {
    statePath,
    stateExists: store !== undefined,
    organizations,
    subscribers: await subscriberStatuses(config, store),
  };
}

async function subscriberStatuses(
  config: Config,
  store: SqliteStateStore | undefined,
): Promise<SubscriberStatus[]> {
  const byId = new Map<string, SubscriberStatus>();
  for (const subscriber of config.subscribers) {
    byId.set(subscriber.id, {
      id: subscriber.id,
      type: subscriber.type,
      enabledInConfig: subscriber.enabled,
      disabled: null,
      queued: 0,
      dead: 0,
    });
  }
  const entry = (id: string): SubscriberStatus => {
    let status = byId.get(id);
    if (!status) {
      status = { id, type: undefined, enabledInConfig: false, disabled: null, queued: 0, dead: 0 };
      byId.set(id, status);
    }
    return status;
  };
  if (!store) return [...byId.values()];
  for (const status of ['queued', 'dead'] as const) {
    for (const delivery of await store.outbox.listDeliveries({ status }))
      entry(delivery.subscriberId)[status] += 1;
  }
  for (const disabled of await store.outbox.disabledSubscribers()) {
    entry(disabled.subscriberId).disabled = {
      since: new Date(disabled.disabledAt).toISOString(),
      reason: disabled.reason,
    };
  }
  return [...byId.values()];
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
