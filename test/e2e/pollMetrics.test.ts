// `meal-notifier poll --metrics-port 0` as a monitor sees it: a real runner process, its address read from
// its start-up line, scraped over real HTTP. /healthz answers 503 with the reason before the first
// successful cycle and while the API cannot be reached, 200 once a cycle succeeds; /metrics counts the
// cycles, failures, requests, events and deliveries the runner made, and the latencies of one transition
// from the simulated world to the webhook receiver.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type OutageProxy, startOutageProxy } from '../support/outageProxy.js';
import { sample } from '../support/prometheusText.js';
import { type RunningCli, startCli } from '../support/runCli.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { type LogLine, ofKind, when } from './jsonLogLines.js';

const REQUESTS_PER_MINUTE = 600;
let sim: RunningSimulator;
let api: OutageProxy;
let receiver: WebhookReceiver;
let dir: string;
let runner: RunningCli;
const secret = makeWebhookSecret();

beforeAll(async () => {
  sim = await startSimulator({
    seed: 73,
    scenario: false,
    initialOrders: 12,
    requestsPerMinute: REQUESTS_PER_MINUTE,
  });
  // The API cannot be reached when the runner starts.
  api = await startOutageProxy(sim.baseUrl, { down: true });
  receiver = await startWebhookReceiver({ secrets: [secret] });
  dir = await mkdtemp(join(tmpdir(), 'poll-metrics-'));
  const config = await writeNorthSchoolConfig(dir, sim, {
    api: { baseUrl: api.baseUrl, requestsPerMinute: REQUESTS_PER_MINUTE },
    organization: {
      pollIntervalSeconds: 2,
      // One pending listing per cycle and no terminal sweep: a cycle against the unreachable API
      // fails after one listing's retries.
      statuses: ['pending'],
      window: { daysAhead: 0 },
    },
    subscribers: [{ id: 'office', type: 'webhook', url: receiver.url, secret: { env: 'HOOK_SECRET' } }],
    state: 'state.db',
  });
  runner = startCli(['poll', '--config', config, '--metrics-port', '0', '--log-format', 'json'], {
    NORTH_TOKEN: sim.token,
    HOOK_SECRET: secret,
  });
});

afterAll(async () => {
  await runner?.stop();
  await Promise.all([api.close(), receiver.close(), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

const cycles = (stderr: string): LogLine[] => ofKind(stderr, 'cycle');

async function endpoint(): Promise<string> {
  const stderr = await runner.waitForStderr(
    when('the metrics line', (text) =>
      ofKind(text, 'lifecycle').some((line) => line.event === 'metrics_listening'),
    ),
  );
  const line = ofKind(stderr, 'lifecycle').find((record) => record.event === 'metrics_listening');
  return String(line?.url);
}

async function get(path: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(`${await endpoint()}${path}`);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

const north = { organization: 'North School' };
const office = { subscriber: 'office' };

describe('meal-notifier poll --metrics-port', () => {
  it('listens on loopback at the address its start-up line gives', async () => {
    expect(await endpoint()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers /healthz with 503 and the reason before any cycle succeeds, and while the API is unreachable', async () => {
    const before = await get('/healthz');
    expect(before.status).toBe(503);
    expect(before.body).toMatch(/^unhealthy\nNorth School: never polled/);

    await runner.waitForStderr(
      when('a failed cycle', (text) => cycles(text).some((line) => line.ok === false)),
    );
    const unreachable = await get('/healthz');
    expect(unreachable.status).toBe(503);
    expect(unreachable.body).toMatch(
      /^unhealthy\nNorth School: never polled successfully; 1 failed cycle in a row, the last: .+\n$/,
    );

    const metrics = await get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(metrics.body, 'meal_notifier_poll_cycles_total', north)).toBe(1);
    expect(sample(metrics.body, 'meal_notifier_poll_cycle_failures_total', north)).toBe(1);
    expect(sample(metrics.body, 'meal_notifier_healthy')).toBe(0);
    expect(
      sample(metrics.body, 'meal_notifier_last_successful_poll_timestamp_seconds', north),
    ).toBeUndefined();
  });

  it('answers /healthz with 200 once a cycle succeeds', async () => {
    api.down = false;
    await runner.waitForStderr(
      when('a successful cycle', (text) => cycles(text).some((line) => line.ok === true)),
    );
    const health = await get('/healthz');
    expect(health).toMatchObject({ status: 200, body: 'ok\n' });
  });

  it('counts cycles, requests, events and deliveries, and times a transition from detection to delivery', async () => {
    const startedAt = Date.now();
    sim.world.addOrder({ pickupDate: sim.world.today() });
    await runner.waitForStderr(
      when('a delivery', (text) => ofKind(text, 'delivery').some((line) => line.state === 'delivered')),
    );
    const { body } = await get('/metrics');
    const succeeded = cycles(runner.output.stderr).filter((line) => line.ok === true).length;

    expect(sample(body, 'meal_notifier_poll_cycles_total', north)).toBeGreaterThanOrEqual(1 + succeeded);
    expect(sample(body, 'meal_notifier_poll_cycle_failures_total', north)).toBe(1);
    expect(sample(body, 'meal_notifier_api_requests_total', north)).toBeGreaterThanOrEqual(succeeded);
    expect(sample(body, 'meal_notifier_api_budget_requests_per_minute')).toBe(REQUESTS_PER_MINUTE);
    expect(sample(body, 'meal_notifier_api_budget_remaining_requests', north)).toBeGreaterThan(0);
    expect(sample(body, 'meal_notifier_orders_seen', north)).toBeGreaterThan(0);
    expect(sample(body, 'meal_notifier_events_total', { ...north, type: 'order.created' })).toBe(1);
    expect(sample(body, 'meal_notifier_deliveries_total', { ...office, outcome: 'delivered' })).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(sample(body, 'meal_notifier_delivery_queue_depth', office)).toBe(0);
    expect(sample(body, 'meal_notifier_dead_letters', office)).toBe(0);
    expect(sample(body, 'meal_notifier_detection_latency_seconds_count', north)).toBe(1);
    expect(sample(body, 'meal_notifier_delivery_latency_seconds_count', office)).toBe(1);
    // From the order's creation to its detection, and from there to the receiver: within this test.
    const withinTest = (Date.now() - startedAt) / 1000;
    expect(sample(body, 'meal_notifier_detection_latency_seconds_sum', north)).toBeLessThanOrEqual(
      withinTest,
    );
    expect(sample(body, 'meal_notifier_delivery_latency_seconds_sum', office)).toBeLessThanOrEqual(
      withinTest,
    );
    const lastSuccess = sample(body, 'meal_notifier_last_successful_poll_timestamp_seconds', north) ?? 0;
    expect(lastSuccess * 1000).toBeGreaterThan(startedAt - 10_000);
    expect(sample(body, 'meal_notifier_healthy')).toBe(1);
    // The process's own metrics, under their usual names.
    expect(sample(body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('stops on SIGTERM with its metrics endpoint', async () => {
    const url = await endpoint();
    expect(await runner.stop('SIGTERM')).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
