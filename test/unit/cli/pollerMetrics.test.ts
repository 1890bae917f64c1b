// The runner's /metrics as rendered: its counts are the run tally's (the summary's), read at each scrape,
// so a cycle that threw counts as a failed cycle there too; gauges come from the status report, the health
// gauge from the same verdict as /healthz; latencies are observed as they happen. A registry of its own:
// two runners' metrics in one process do not mix, and prom-client's global registry stays empty.
import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PollerMetrics } from '../../../cli/metrics/pollerMetrics.js';
import { RunTally } from '../../../cli/runtime/runTally.js';
import type { DeliveryReport } from '../../../shared/delivery/outboxDelivery.js';
import type { LocalStatusReport, OrganizationStatus } from '../../../shared/operations/statusReport.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { sample } from '../../support/prometheusText.js';
import { pollReport } from './pollReportFixture.js';

const NOW = Date.parse('2026-03-05T10:00:00.000Z');
const north = { organization: ORGANIZATION.name };

function organizationStatus(overrides: Partial<OrganizationStatus> = {}): OrganizationStatus {
  return {
    id: ORGANIZATION.id,
    name: ORGANIZATION.name,
    pollIntervalSeconds: 10,
    lastSuccessAt: new Date(NOW - 4_000).toISOString(),
    lastAttemptAt: new Date(NOW - 4_000).toISOString(),
    nextPollAt: new Date(NOW + 6_000).toISOString(),
    consecutiveFailures: 0,
    lastError: null,
    tokenRejectedSince: null,
    snapshots: 3,
    eventsLastHour: 0,
    eventsLastDay: 0,
    unreadableOrders: [],
    unreadableEstablishments: [],
    ...overrides,
  };
}

function statusReport(overrides: Partial<LocalStatusReport> = {}): LocalStatusReport {
  return {
    statePath: '/tmp/state.db',
    stateExists: true,
    organizations: [organizationStatus()],
    subscribers: [
      { id: 'automation', type: 'webhook', enabledInConfig: true, disabled: null, queued: 3, dead: 0 },
    ],
    ...overrides,
  };
}

function delivery(state: DeliveryReport['state'], eventTime: string): DeliveryReport {
  return {
    subscriberId: 'automation',
    eventId: 'e',
    eventType: 'order.created',
    reference: 'NS-1',
    outcome: state === 'delivered' ? { kind: 'delivered' } : { kind: 'retry', reason: '500' },
    attempts: 1,
    state,
    eventTime,
  };
}

function metricsOf(run: RunTally, report: () => LocalStatusReport = () => statusReport()): PollerMetrics {
  return new PollerMetrics({ run, status: async () => report(), budgetPerMinute: 45, clock: () => NOW });
}

describe('PollerMetrics', () => {
  it("renders the run tally's counts: cycles, failures, requests, events by type, deliveries by outcome", async () => {
    const run = new RunTally([ORGANIZATION], NOW);
    run.recordCycle(
      pollReport({
        requests: 4,
        ordersSeen: 63,
        budgetRemaining: 41,
        events: [makeOrderEvent(), makeOrderEvent(), makeOrderEvent({ type: 'order.canceled' })],
      }),
    );
    run.recordCycle(pollReport({ ok: false, requests: 2, ordersSeen: 60, budgetRemaining: 39 }));
    // Thrown before it could report: a failed cycle all the same.
    run.recordCycleError(ORGANIZATION.id);
    run.recordDelivery(ORGANIZATION.id, delivery('delivered', new Date(NOW).toISOString()));
    run.recordDelivery(ORGANIZATION.id, delivery('queued', new Date(NOW).toISOString()));
    // An event pruned from the log since: the subscriber's count still has it.
    run.recordDelivery(undefined, delivery('delivered', new Date(NOW).toISOString()));

    const text = await metricsOf(run).render();

    expect(sample(text, 'meal_notifier_poll_cycles_total', north)).toBe(3);
    expect(sample(text, 'meal_notifier_poll_cycle_failures_total', north)).toBe(2);
    expect(sample(text, 'meal_notifier_api_requests_total', north)).toBe(6);
    expect(sample(text, 'meal_notifier_events_total', { ...north, type: 'order.created' })).toBe(2);
    expect(sample(text, 'meal_notifier_events_total', { ...north, type: 'order.canceled' })).toBe(1);
    const automation = { subscriber: 'automation' };
    expect(sample(text, 'meal_notifier_deliveries_total', { ...automation, outcome: 'delivered' })).toBe(2);
    expect(sample(text, 'meal_notifier_deliveries_total', { ...automation, outcome: 'retry' })).toBe(1);
    // The last cycle's view of the orders and of the token's minute.
    expect(sample(text, 'meal_notifier_orders_seen', north)).toBe(60);
    expect(sample(text, 'meal_notifier_api_budget_remaining_requests', north)).toBe(39);
    expect(sample(text, 'meal_notifier_api_budget_requests_per_minute')).toBe(45);
    expect(text).toContain('# TYPE meal_notifier_poll_cycles_total counter');
  });

  it('reads the counts afresh at each scrape, so they only grow as the tally does', async () => {
    const run = new RunTally([ORGANIZATION], NOW);
    const metrics = metricsOf(run);
    run.recordCycle(pollReport());
    expect(sample(await metrics.render(), 'meal_notifier_poll_cycles_total', north)).toBe(1);
    run.recordCycle(pollReport());
    expect(sample(await metrics.render(), 'meal_notifier_poll_cycles_total', north)).toBe(2);
  });

  it('renders queue depths, dead letters, the last success and the health verdict from the status report', async () => {
    let report = statusReport();
    const metrics = metricsOf(new RunTally([ORGANIZATION], NOW), () => report);

    const healthy = await metrics.render();
    expect(sample(healthy, 'meal_notifier_delivery_queue_depth', { subscriber: 'automation' })).toBe(3);
    expect(sample(healthy, 'meal_notifier_dead_letters', { subscriber: 'automation' })).toBe(0);
    expect(sample(healthy, 'meal_notifier_last_successful_poll_timestamp_seconds', north)).toBe(
      (NOW - 4_000) / 1000,
    );
    expect(sample(healthy, 'meal_notifier_healthy')).toBe(1);
    expect(sample(healthy, 'meal_notifier_poll_overdue', north)).toBe(0);
    expect(await metrics.health()).toEqual({ healthy: true, problems: [] });

    report = statusReport({
      organizations: [organizationStatus({ lastSuccessAt: null, lastAttemptAt: null, nextPollAt: null })],
    });
    const never = await metrics.render();
    expect(sample(never, 'meal_notifier_healthy')).toBe(0);
    expect(sample(never, 'meal_notifier_poll_overdue', north)).toBe(1);
    expect(sample(never, 'meal_notifier_last_successful_poll_timestamp_seconds', north)).toBeUndefined();
    expect((await metrics.health()).problems).toEqual([expect.stringMatching(/^North School: never polled/)]);
  });

  it('observes detection latency from the source time, and delivery latency of deliveries only', async () => {
    const run = new RunTally([ORGANIZATION], NOW);
    const metrics = metricsOf(run);
    const detected = makeOrderEvent({ detectedAt: new Date(NOW - 20_000).toISOString() });
    const existing = makeOrderEvent();
    metrics.observeCycle(
      // The second event has no source time (an order that existed before): not observed.
      pollReport({ events: [detected, existing], sourceTimes: { [detected.id]: NOW - 27_500 } }),
    );
    metrics.observeDelivery(delivery('delivered', new Date(NOW - 1_500).toISOString()));
    metrics.observeDelivery(delivery('queued', new Date(NOW - 9_000).toISOString()));

    const text = await metrics.render();
    expect(sample(text, 'meal_notifier_detection_latency_seconds_count', north)).toBe(1);
    expect(sample(text, 'meal_notifier_detection_latency_seconds_sum', north)).toBe(7.5);
    expect(sample(text, 'meal_notifier_detection_latency_seconds_bucket', { ...north, le: '5' })).toBe(0);
    expect(sample(text, 'meal_notifier_detection_latency_seconds_bucket', { ...north, le: '10' })).toBe(1);
    const automation = { subscriber: 'automation' };
    expect(sample(text, 'meal_notifier_delivery_latency_seconds_count', automation)).toBe(1);
    expect(sample(text, 'meal_notifier_delivery_latency_seconds_sum', automation)).toBe(1.5);
  });

  it("keeps to a registry of its own, never prom-client's global one", async () => {
    const first = metricsOf(new RunTally([ORGANIZATION], NOW));
    const second = metricsOf(new RunTally([ORGANIZATION], NOW));
    first.observeDelivery(delivery('delivered', new Date(NOW - 1_000).toISOString()));
    const count = 'meal_notifier_delivery_latency_seconds_count';
    expect(sample(await first.render(), count, { subscriber: 'automation' })).toBe(1);
    expect(sample(await second.render(), count, { subscriber: 'automation' })).toBeUndefined();
    expect(globalRegistry.getMetricsAsArray()).toEqual([]);
  });
});
