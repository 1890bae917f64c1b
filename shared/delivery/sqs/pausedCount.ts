// The delivery functions' one EMF metric, SubscriberPaused (shared/contracts/customMetrics.ts): how many
// deliveries of an invocation found their subscriber paused, under the `service` dimension alone. Counted
// during a batch and published once at its end, and only when something paused: CloudWatch bills a custom
// metric by the hours it is reported in, so a month without a pause costs nothing. The subscribers are an
// EMF property of the blob, not a dimension (a dimension would be a metric, $0.30 a month, per subscriber);
// their `subscriber paused` log lines say what to do.
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SUBSCRIBER_PAUSED_METRIC } from '../../contracts/customMetrics.js';

/** The EMF property listing the paused subscribers of the blob. */
export const PAUSED_SUBSCRIBERS_PROPERTY = 'subscribers';

export class PausedCount {
  readonly #subscribers: string[] = [];

  /** One delivery found its subscriber paused. */
  add(subscriberId: string): void {
    this.#subscribers.push(subscriberId);
  }

  /** Publishes the count, if any, and starts over. */
  publish(metrics: Metrics): void {
    if (this.#subscribers.length === 0) return;
    metrics.addMetadata(PAUSED_SUBSCRIBERS_PROPERTY, [...new Set(this.#subscribers)].join(','));
    metrics.addMetric(SUBSCRIBER_PAUSED_METRIC, MetricUnit.Count, this.#subscribers.length);
    metrics.publishStoredMetrics();
    this.#subscribers.length = 0;
  }
}
