// What `meal-notifier status` reports locally, read from the state file alone (no secrets, no request): per
// organization its polling health, recent events and the orders whose records stay unreadable, per
// subscriber its queued and dead deliveries.
import { statSync } from 'node:fs';
import { catchUpAfterMs } from '../../shared/config/catchUpAfter.js';
import type { Config } from '../../shared/config/configSchema.js';
import {
  type LocalStatusReport,
  type OrganizationStatus,
  organizationStatus,
  type SubscriberStatus,
} from '../../shared/operations/statusReport.js';
import type { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';

/**
 * Whether the state file exists, checked before opening it: opening would create it. Only a plain "no such
 * file" counts as absent; anything else (a parent it may not search, a file in the path) is left to the
 * opening, which names it.
 */
export function stateFileExists(statePath: string): boolean {
  try {
    statSync(statePath);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

export async function collectStatus(
  config: Config,
  statePath: string,
  store: SqliteStateStore | undefined,
  nowMs: number,
): Promise<LocalStatusReport> {
  const organizations: OrganizationStatus[] = [];
  for (const organization of config.organizations) {
    organizations.push(await organizationStatus(organization, store, nowMs));
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
  const byId = new Map<string, SubscriberStatus & { queued: number; dead: number }>();
  for (const subscriber of config.subscribers) {
    const catchUpAfter = catchUpAfterMs(subscriber);
    byId.set(subscriber.id, {
      id: subscriber.id,
      type: subscriber.type,
      enabledInConfig: subscriber.enabled,
      disabled: null,
      queued: 0,
      dead: 0,
      ...(catchUpAfter === undefined ? {} : { catchUpAfterSeconds: Math.round(catchUpAfter / 1000) }),
      behindSince: null,
    });
  }
  const entry = (id: string) => {
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
  for (const backlog of await store.outbox.backlogs()) {
    entry(backlog.subscriberId).behindSince = new Date(backlog.oldestChangeAt).toISOString();
  }
  for (const disabled of await store.outbox.disabledSubscribers()) {
    entry(disabled.subscriberId).disabled = {
      since: new Date(disabled.disabledAt).toISOString(),
      reason: disabled.reason,
    };
  }
  return [...byId.values()];
}
