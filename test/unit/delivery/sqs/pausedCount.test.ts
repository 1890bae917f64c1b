// The delivery functions' one custom metric, SubscriberPaused, as an SQS batch produces it: published once,
// at the batch's end, with the count of deliveries that found their subscriber paused and nothing else
// (delivered, retried and dead-lettered are log lines the dashboard queries, not metrics); the service
// its one dimension, the subscribers a property; and no blob at all for a batch in which nothing paused,
// since CloudWatch bills a metric for each hour it is reported in.
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  METRICS_NAMESPACE,
  SERVICE_NAMES,
  SUBSCRIBER_PAUSED_METRIC,
} from '../../../../shared/contracts/customMetrics.js';
import { DELIVERY_OUTCOME_MESSAGES } from '../../../../shared/contracts/deliveryLogLines.js';
import type { DeliverySubscriber } from '../../../../shared/contracts/deliveryQueueContract.js';
import type { DeliveryOutcome } from '../../../../shared/delivery/deliveryOutcome.js';
import { PausedCount } from '../../../../shared/delivery/sqs/pausedCount.js';
import {
  deliverSqsRecord,
  type SqsDeliveryDependencies,
} from '../../../../shared/delivery/sqs/sqsDelivery.js';
import { captureOutput } from '../../../support/captureOutput.js';
import { makeOrderEvent } from '../../../support/eventFixtures.js';
import { sqsEventRecord } from '../../../support/lambdaRecords.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const NOW = Date.parse('2026-11-30T12:00:00.000Z');

const subscribers = ['board', 'hook-ok', 'hook-down', 'hook-gone'].map(
  (id) => ({ id, type: 'slack', enabled: true, webhookUrl: { env: 'URL' } }) as unknown as DeliverySubscriber,
);

const answers: Record<string, DeliveryOutcome> = {
  board: { kind: 'paused', reason: 'not_in_channel', action: 'invite the app to the channel' },
  'hook-ok': { kind: 'delivered', status: 200 },
  'hook-down': { kind: 'retry', reason: 'answered 500', status: 500 },
  'hook-gone': { kind: 'gone', reason: 'answered 410', status: 410 },
};

function batch() {
  const lines: { message: string; fields: Record<string, unknown> }[] = [];
  const log = (message: unknown, ...fields: unknown[]): void => {
    lines.push({ message: String(message), fields: (fields[0] ?? {}) as Record<string, unknown> });
  };
  const paused = new PausedCount();
  const deps: SqsDeliveryDependencies<DeliverySubscriber> = {
    subscribers,
    senders: { senderFor: async (id) => ({ send: async () => answers[id] as DeliveryOutcome }) },
    status: {
      disabled: async () => undefined,
      disableSubscriber: async (subscriberId, reason, atMs) => ({ subscriberId, reason, disabledAt: atMs }),
    },
    queue: { changeVisibility: async () => {}, deadLetter: async () => {}, send: async () => {} },
    paused,
    logger: { info: log, warn: log, error: log },
    clock: () => NOW,
    random: () => 0.5,
  };
  const deliver = (subscriberId: string, receiveCount = 1): Promise<void> =>
    deliverSqsRecord(
      sqsEventRecord(
        makeOrderEvent({ detectedAt: new Date(NOW - 1_500).toISOString() }),
        `${subscriberId}-queue`,
        receiveCount,
      ) as SQSRecord,
      deps,
    ).catch(() => {});
  return { lines, paused, deliver };
}

function slackMetrics(): Metrics {
  return new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.slack });
}

describe('PausedCount', () => {
  it("publishes one blob for the batch: the paused deliveries' count, the service its one dimension, the subscribers a property, no other metric", async () => {
    const output = captureOutput();
    const { paused, deliver } = batch();
    await deliver('board');
    await deliver('hook-ok');
    await deliver('board', 2);
    await deliver('hook-down');

    paused.publish(slackMetrics());

    const blobs = output.emf();
    expect(blobs).toHaveLength(1);
    expect(blobs[0]).toMatchObject({
      service: 'slack-delivery',
      [SUBSCRIBER_PAUSED_METRIC]: 2,
      subscribers: 'board',
    });
    const [directive] = (
      blobs[0] as {
        _aws: {
          CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
        };
      }
    )._aws.CloudWatchMetrics;
    expect(directive?.Namespace).toBe(METRICS_NAMESPACE);
    expect(directive?.Dimensions).toEqual([['service']]);
    expect(directive?.Metrics.map(({ Name }) => Name)).toEqual([SUBSCRIBER_PAUSED_METRIC]);
  });

  it('publishes nothing for a batch in which no subscriber paused, whatever else happened: those are log lines', async () => {
    const output = captureOutput();
    const { lines, paused, deliver } = batch();
    await deliver('hook-ok');
    await deliver('hook-down', 3);
    await deliver('hook-gone');

    paused.publish(slackMetrics());

    expect(output.emf()).toEqual([]);
    // What the dashboard's widgets read instead: each outcome line names its subscriber and attempts, the
    // delivered one its latency.
    const outcome = (message: string) => lines.find((line) => line.message === message)?.fields;
    expect(outcome(DELIVERY_OUTCOME_MESSAGES.delivered)).toMatchObject({
      subscriber: 'hook-ok',
      attempts: 1,
      latencyMs: 1_500,
    });
    expect(outcome(DELIVERY_OUTCOME_MESSAGES.deferred)).toMatchObject({
      subscriber: 'hook-down',
      attempts: 3,
    });
    expect(outcome(DELIVERY_OUTCOME_MESSAGES.disabled)).toMatchObject({
      subscriber: 'hook-gone',
      attempts: 1,
    });
    expect(outcome(DELIVERY_OUTCOME_MESSAGES.deadLettered)).toMatchObject({
      subscriber: 'hook-gone',
      attempts: 1,
      kind: 'gone',
    });
  });

  it('starts over after publishing: the next batch without a pause publishes nothing', async () => {
    const output = captureOutput();
    const { paused, deliver } = batch();
    await deliver('board');
    paused.publish(slackMetrics());
    await deliver('hook-ok');
    paused.publish(slackMetrics());

    expect(output.emf().map((blob) => blob[SUBSCRIBER_PAUSED_METRIC])).toEqual([1]);
  });
});
