// The events table: each subscriber's fate in a line, and a layout that fits the width it is given,
// narrowing the deliveries column first and the event ids only when it must.
import { describe, expect, it } from 'vitest';
import { describeDelivery, formatEventsTable } from '../../../cli/output/eventsTable.js';
import type { SubscriberDelivery } from '../../../shared/operations/eventHistory.js';
import { listedEvent, outboxDelivery } from '../../../shared/operations/eventHistory.js';
import { makeEvent, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';

const NORTH = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
const SOUTH = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const NOW = T0 + 90_000;

function delivery(overrides: Partial<SubscriberDelivery>): SubscriberDelivery {
  return {
    subscriberId: 'automation',
    status: 'delivered',
    attempts: 1,
    nextAttemptAt: null,
    deliveredAt: null,
    lastError: null,
    ...overrides,
  };
}

describe('describeDelivery', () => {
  it.each([
    [delivery({}), 'automation: delivered'],
    [delivery({ attempts: 3, lastError: 'answered 500' }), 'automation: delivered on attempt 3'],
    [
      delivery({
        status: 'queued',
        attempts: 2,
        nextAttemptAt: new Date(NOW + 300_000).toISOString(),
        lastError: 'answered 503',
      }),
      'automation: queued, attempt 3 in 5 min; last error: answered 503',
    ],
    [
      delivery({ status: 'queued', attempts: 0, nextAttemptAt: new Date(NOW).toISOString() }),
      'automation: queued, attempt 1 now',
    ],
    [
      delivery({ status: 'dead', attempts: 8, lastError: 'answered 500' }),
      'automation: dead after 8 attempts; last error: answered 500',
    ],
    [
      delivery({ status: 'dead', attempts: 0, lastError: 'subscriber disabled: answered 410' }),
      'automation: dead, not attempted; last error: subscriber disabled: answered 410',
    ],
    [delivery({ status: 'routed', attempts: null }), 'automation: routed'],
  ])('says %j as a line', (given, line) => {
    expect(describeDelivery(given, NOW)).toBe(line);
  });
});

describe('formatEventsTable', () => {
  const events = [NORTH, SOUTH].map((organizationId) => {
    const stored = {
      event: makeEvent(organizationId, newOrderUuid(), 'order.canceled'),
      organizationId,
      recordedAt: T0,
    };
    return listedEvent(stored, [
      outboxDelivery({
        subscriberId: 'automation',
        eventId: stored.event.id,
        status: 'dead',
        attempts: 8,
        nextAttemptAt: T0,
        lastError: 'https://hooks.example.test/orders answered 500 Internal Server Error after 15 s',
        deliveredAt: null,
      }),
    ]);
  });
  const names = new Map([
    [NORTH, 'North School'],
    [SOUTH, 'South School'],
  ]);

  it.each([80, 100, 160])('fits %i columns', (width) => {
    const table = formatEventsTable(events, { nowMs: NOW, width, organizationNames: names });
    for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(width);
  });

  it('keeps event ids whole when there is room, and names each row’s organization when there are several', () => {
    const table = formatEventsTable(events, { nowMs: NOW, width: 160, organizationNames: names });
    for (const { id } of events) expect(table).toContain(id);
    expect(table).toMatch(
      /│ 2026-03-05 12:00:00Z │ order\.canceled\s+│ ORD-1\s+│ automation: dead after 8 attempts;/,
    );
    expect(table).toMatch(/│ 90 s ago\s+│ \S+\s+│ North School │/);
    expect(table).toMatch(/│ South School │/);
  });
});
