// A poll state as an organization of a given size leaves it after a day of cycles, built with the keys and
// records the real phases write (coverage keys, listing keys, prep summary keys and heard items, event
// ids): what the poll state size tests measure against DynamoDB's item.
import { randomUUID } from 'node:crypto';
import type { Establishment } from '../../shared/api/schemas.js';
import { coverageKey } from '../../shared/detect/coverage.js';
import { listingKey } from '../../shared/detect/listingSpec.js';
import { heardOf } from '../../shared/detect/planPrepChanges.js';
import { prepSummaryKey } from '../../shared/detect/planPrepSummaries.js';
import { MAX_UNREADABLE_ORDERS } from '../../shared/detect/unreadableOrders.js';
import { prepSummaryEventId } from '../../shared/events/eventId.js';
import { initialPollState, type PollState } from '../../shared/store/pollState.js';
import { addDays } from '../../shared/time/calendarDate.js';

export interface OrganizationSize {
  establishments: number;
  daysBack: number;
  daysAhead: number;
  /** Items on the organization's menu. */
  menuItems: number;
  /** Distinct items each kitchen's day of orders holds (a prep summary's heard items). */
  itemsPerKitchenDay: number;
}

/** The day the state is left on: its prep summaries' last pickup date. */
export const LARGE_STATE_TODAY = '2026-11-30';
const TODAY = LARGE_STATE_TODAY;
const NOW = Date.parse('2026-11-30T14:00:00Z');
/**
 * The largest organization the docs promise (docs/aws.md, "Limits on AWS"): 50 establishments, each listed
 * apart, the default window (today and 7 days ahead), a 300-item menu of which each kitchen's day orders 40.
 */
export const PROMISED_ORGANIZATION: OrganizationSize = {
  establishments: 50,
  daysBack: 0,
  daysAhead: 7,
  menuItems: 300,
  itemsPerKitchenDay: 40,
};

const STATUSES = ['pending', 'completed', 'canceled', 'archived'] as const;

function establishment(index: number): Establishment {
  return {
    uuid: randomUUID(),
    name: `Establishment ${index} — Main Canteen, North Building`,
    allowed_order_pickup_time_type: 'interval',
    allowed_order_pickup_time_interval: ['11:30:00', '13:30:00'],
    working_days: [1, 2, 3, 4, 5],
    order_closing_time: '09:30:00',
    menu_closing_time: '09:00:00',
    daily_order_closure: 1,
    status: { label: 'Enabled', value: 'enabled' },
    created_at: '2024-08-19 07:12:44.123456',
    updated_at: '2026-09-01 06:00:01.654321',
    // Fields the spec does not list are kept too.
    address: `${index} School Lane, 1234 AB Springfield`,
    phone: '+31 20 123 4567',
  } as Establishment;
}

/** The menu's items: a sku and a name as long as a canteen's. */
function menu(size: number) {
  return Array.from({ length: size }, (_, index) => ({
    sku: `MENU-${String(index).padStart(4, '0')}`,
    name: `Wholegrain wrap with chicken and salad no. ${index}`,
  }));
}

/**
 * Every record at its fullest: coverage of each date of the window at each establishment (listed apart),
 * every listing of each establishment remembered, a prep summary for every establishment and past day with
 * its heard items, the most unreadable orders the state keeps, and pending orders being looked up.
 */
export function largeOrganizationState(size: OrganizationSize): PollState {
  const organizationId = randomUUID();
  const state = initialPollState(organizationId);
  const establishments = Array.from({ length: size.establishments }, (_, index) => establishment(index + 1));
  const items = menu(size.menuItems);
  const dates = Array.from({ length: size.daysBack + size.daysAhead + 1 }, (_, index) =>
    addDays(TODAY, index - size.daysBack),
  );
  for (const { uuid } of establishments) {
    for (const date of dates) state.coverage.pendingCoveredAt[coverageKey(date, uuid)] = NOW - 7_000;
    for (const status of STATUSES) {
      const key = listingKey({
        kind: 'window',
        status,
        establishment: uuid,
        startDate: TODAY,
        endDate: TODAY,
      });
      state.listings.sizes[key] = 1_234;
      state.listings.walkedAt[key] = NOW - 60_000;
      if (status !== 'pending') state.sweep.sweptAt[key] = NOW - 300_000;
    }
  }
  state.coverage.watchingSince = NOW - 30 * 86_400_000;
  for (const [index, { uuid }] of establishments.entries()) {
    for (const date of dates.filter((day) => day <= TODAY)) {
      // Each kitchen's day draws its own stretch of the menu.
      const lines = Array.from({ length: size.itemsPerKitchenDay }, (_, line) => {
        const item = items[(index * 7 + line) % items.length] ?? { sku: 'x', name: 'x' };
        return { ...item, quantity: 10 + line };
      });
      const heard = heardOf(lines);
      state.prepSummaries[prepSummaryKey(uuid, date)] = {
        eventId: prepSummaryEventId(organizationId, uuid, date),
        closedAt: Date.parse(`${date}T08:30:00Z`),
        complete: true,
        ...(heard === undefined ? {} : { items: heard }),
      };
    }
  }
  for (let index = 0; index < MAX_UNREADABLE_ORDERS; index += 1) {
    state.unreadable[randomUUID()] = {
      since: NOW - 3_600_000,
      lastSeenAt: NOW,
      listing: `completed@${establishments[0]?.uuid}`,
      page: 3,
      detail: `record #${index} on the page: customer.email: Invalid email address`,
    };
  }
  for (let index = 0; index < 200; index += 1) {
    state.lookups.searched[randomUUID()] = ['completed', 'canceled'];
  }
  state.lookups.averageRequests = 3.25;
  state.establishments = { fetchedAt: NOW - 3_600_000, records: establishments };
  state.sweep.inProgress = { key: `archived@${establishments[0]?.uuid}`, nextPage: 12, startedAt: NOW };
  state.sweep.credit = 0.75;
  state.pace = { averageCycleRequests: 12.5, nextPollAt: NOW + 15_000 };
  state.health = {
    lastSuccessAt: NOW - 20_000,
    lastAttemptAt: NOW,
    consecutiveFailures: 1,
    lastError: `listing pending@${establishments[0]?.uuid} failed: the API answered 503 Service Unavailable (retried 3 times)`,
    tokenRejectedAt: null,
  };
  return state;
}
