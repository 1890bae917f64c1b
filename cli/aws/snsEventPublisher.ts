// The SNS adapter of the EventPublisher port: the publisher's own publishEvents, so a republished event has
// the body per protocol, subject and filter attributes of a published one, in PublishBatch requests of
// the same limits.
import type { SNSClient } from '@aws-sdk/client-sns';
import type { HighlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';
import type { EventPublisher } from '../../shared/operations/republishFailedBatches.js';
import { publishEvents } from '../../shared/publish/publishEvents.js';

export class SnsEventPublisher implements EventPublisher {
  readonly #sns: SNSClient;
  readonly #topicArn: string;
  readonly #highlightWords: HighlightWordsOf;
  readonly #catchUpAfterSeconds: readonly number[];

  /**
   * @param highlightWords each organization's words, from the config the stack was deployed with
   * @param catchUpAfterSeconds the config's catch-up thresholds, as the publisher has them
   */
  constructor(
    sns: SNSClient,
    topicArn: string,
    highlightWords: HighlightWordsOf,
    catchUpAfterSeconds: readonly number[],
  ) {
    this.#sns = sns;
    this.#topicArn = topicArn;
    this.#highlightWords = highlightWords;
    this.#catchUpAfterSeconds = catchUpAfterSeconds;
  }

  async publish(events: readonly NotifierEvent[]): Promise<{ eventId: string; reason: string }[]> {
    // publishEvents names each event by a key of the caller's (the stream's sequence number in the
    // publisher); the event id serves here.
    const report = await publishEvents(
      this.#sns,
      this.#topicArn,
      // Without the source times the event log keeps, a republished event counts as timely: it goes to
      // every subscriber its filter lets it reach, however late (docs/delivery.md, "Calm after an outage").
      events.map((event) => ({ sequenceNumber: event.id, event })),
      this.#highlightWords,
      { catchUpAfterSeconds: this.#catchUpAfterSeconds },
    );
    return report.failures.map(({ eventId, reason }) => ({ eventId, reason }));
  }
}
