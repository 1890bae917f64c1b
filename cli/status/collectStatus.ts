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
import type { LocalPorts } from '../runtime/localRuntime.js';

/** What status reads from the state file: the poll state and the outbox's ledger. */
type StatusPorts = Pick<LocalPorts, 'store' | 'outbox'>;

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
  state: StatusPorts | undefined,
  nowMs: number,
): Promise<LocalStatusReport> {
  const organizations: OrganizationStatus[] = [];
  for (const organization of config.organizations) {
    organizations.push(await organizationStatus(organization, state?.store, nowMs));
  }
  return {
    statePath,
    stateExists: state !== undefined,
    organizations,
    subscribers: await subscriberStatuses(config, state?.outbox),
  };
}

async function subscriberStatuses(
  config: Config,
  outbox: StatusPorts['outbox'] | undefined,
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
  if (!outbox) return [...byId.values()];
  for (const status of ['queued', 'dead'] as const) {
    for (const delivery of await outbox.listDeliveries({ status })) entry(delivery.subscriberId)[status] += 1;
  }
  for (const backlog of await outbox.backlogs()) {
    entry(backlog.subscriberId).behindSince = new Date(backlog.oldestChangeAt).toISOString();
  }
  for (const paused of (await outbox.pausedSubscribers?.()) ?? []) {
    entry(paused.subscriberId).paused = {
      since: new Date(paused.disabledAt).toISOString(),
      reason: paused.reason,
    };
  }
  for (const disabled of await outbox.disabledSubscribers()) {
    entry(disabled.subscriberId).disabled = {
      since: new Date(disabled.disabledAt).toISOString(),
      reason: disabled.reason,
    };
  }
  return [...byId.values()];
}
