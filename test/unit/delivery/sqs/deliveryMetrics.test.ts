// The delivery functions' EMF metrics: one blob per subscriber, naming it in a property and never in a
// dimension (a metric per subscriber would cost per subscriber), counters with zeros, and every latency
// value kept with its subscriber however many there are.
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { METRICS_NAMESPACE, SERVICE_NAMES } from '../../../../shared/contracts/customMetrics.js';
import { DeliveryTally } from '../../../../shared/delivery/sqs/deliveryMetrics.js';
import { captureOutput } from '../../../support/captureOutput.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DeliveryTally', () => {
  it('publishes one blob per subscriber, with every counter and the latencies', () => {
    const output = captureOutput();
    const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.webhook });
    const tally = new DeliveryTally();
    tally.count('hooks', 'Delivered');
    tally.latency('hooks', 1_200);
    tally.count('hooks', 'Delivered');
    tally.latency('hooks', 800);
    tally.count('kitchen', 'SubscriberDisabled');
    tally.count('kitchen', 'DeadLettered');

    tally.publish(metrics);

    expect(output.emf()).toEqual([
      expect.objectContaining({
        subscriber: 'hooks',
        Delivered: 2,
        DeliveryRetried: 0,
        DeadLettered: 0,
        SubscriberDisabled: 0,
        DeliveryLatencyMs: [1_200, 800],
      }),
      expect.objectContaining({
        subscriber: 'kitchen',
        Delivered: 0,
        DeadLettered: 1,
        SubscriberDisabled: 1,
      }),
    ]);
    // The channel's metrics: the service is the one dimension.
    for (const blob of output.emf()) {
      const { CloudWatchMetrics } = (blob as { _aws: { CloudWatchMetrics: { Dimensions: string[][] }[] } })
        ._aws;
      expect(CloudWatchMetrics.flatMap((entry) => entry.Dimensions.flat())).toEqual(['service']);
    }
  });

  it('names the subscriber on every latency value beyond EMF’s 100 per blob', () => {
    const output = captureOutput();
    const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.webhook });
    const tally = new DeliveryTally();
    for (let index = 0; index < 250; index += 1) {
      tally.count('hooks', 'Delivered');
      tally.latency('hooks', index);
    }

    tally.publish(metrics);

    const blobs = output.emf();
    expect(blobs.every((blob) => blob.subscriber === 'hooks')).toBe(true);
    expect(blobs.flatMap((blob) => [blob.DeliveryLatencyMs ?? []].flat())).toHaveLength(250);
    expect(blobs.filter((blob) => 'Delivered' in blob).map((blob) => blob.Delivered)).toEqual([250]);
  });

  it('publishes nothing for a batch that tallied nothing', () => {
    const output = captureOutput();
    new DeliveryTally().publish(
      new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.webhook }),
    );
    expect(output.emf()).toEqual([]);
  });
});
