// The delivery functions' EMF metrics, per channel type (the `service` dimension only): Delivered,
// DeliveryRetried, DeadLettered, SubscriberDisabled, SubscriberPaused (counts, zeros included so graphs
// have no gaps) and DeliveryLatencyMs (event time → delivered, one value per delivery). The subscriber is
// an EMF property of each blob, not a dimension: a dimension would make a custom metric of each, $0.30 a
// month per subscriber and metric, and a subscriber is to cost nothing fixed. Logs Insights groups the
// blobs (and the `delivered` lines) by it. Tallied during a batch and published once at its end, one EMF
// blob per subscriber.
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { DELIVERY_COUNTERS, type DeliveryCounter } from '../../contracts/customMetrics.js';

/** The EMF property naming the blob's subscriber (the log lines' key for it too). */
export const SUBSCRIBER_PROPERTY = 'subscriber';

/** Powertools flushes a metric on its 100th value, dropping the dimensions; blobs stay below that. */
const MAX_VALUES_PER_BLOB = 99;

interface SubscriberTally {
  counts: Record<DeliveryCounter, number>;
  latenciesMs: number[];
}

export class DeliveryTally {
  readonly #bySubscriber = new Map<string, SubscriberTally>();

  count(subscriberId: string, counter: DeliveryCounter): void {
    this.#tally(subscriberId).counts[counter] += 1;
  }

  latency(subscriberId: string, ms: number): void {
    this.#tally(subscriberId).latenciesMs.push(Math.max(0, ms));
  }

  /** Publishes everything tallied and starts over. */
  publish(metrics: Metrics): void {
    for (const [subscriberId, tally] of this.#bySubscriber) {
      metrics.addMetadata(SUBSCRIBER_PROPERTY, subscriberId);
      for (const counter of DELIVERY_COUNTERS)
        metrics.addMetric(counter, MetricUnit.Count, tally.counts[counter]);
      for (let start = 0; start < tally.latenciesMs.length; start += MAX_VALUES_PER_BLOB) {
        if (start > 0) metrics.addMetadata(SUBSCRIBER_PROPERTY, subscriberId);
        for (const ms of tally.latenciesMs.slice(start, start + MAX_VALUES_PER_BLOB)) {
          metrics.addMetric('DeliveryLatencyMs', MetricUnit.Milliseconds, ms);
        }
        metrics.publishStoredMetrics();
      }
      if (tally.latenciesMs.length === 0) metrics.publishStoredMetrics();
    }
    this.#bySubscriber.clear();
  }

  #tally(subscriberId: string): SubscriberTally {
    let tally = this.#bySubscriber.get(subscriberId);
    if (!tally) {
      tally = {
        counts: {
          Delivered: 0,
          DeliveryRetried: 0,
          DeadLettered: 0,
          SubscriberDisabled: 0,
          SubscriberPaused: 0,
        },
        latenciesMs: [],
      };
      this.#bySubscriber.set(subscriberId, tally);
    }
    return tally;
  }
}
