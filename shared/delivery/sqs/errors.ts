// Why a delivery function leaves an SQS record on its queue: these errors make Powertools' BatchProcessor
// report the record in batchItemFailures, and their messages are what the log says about it.
import { FixByHandError } from '../../errors/fixByHandError.js';
import { InternalError } from '../../errors/internalError.js';
import { TransientError } from '../../errors/transientError.js';

/**
 * The record came from a queue that QUEUE_SUBSCRIBERS does not name: the stack and the function disagree,
 * deployed apart. Redeploying both fixes it, retrying does not.
 */
export class UnknownQueueError extends FixByHandError {
  readonly queueArn: string;

  constructor(queueArn: string) {
    super(
      `message from queue ${queueArn}, which QUEUE_SUBSCRIBERS does not name; left for the queue's redrive policy`,
    );
    this.queueArn = queueArn;
  }
}

/** The ARNs come from SQS itself: one that does not parse is a bug here, not a setting. */
export class InvalidQueueArnError extends InternalError {
  constructor(arn: string) {
    super(`"${arn}" is not an SQS queue ARN`);
  }
}

/** The delivery will be tried again later: the message stays on the queue, hidden until then. */
export class DeliveryDeferredError extends TransientError {
  readonly subscriberId: string;
  readonly eventId: string | undefined;
  /** How long the message stays hidden; undefined when its visibility could not be changed. */
  readonly retryInSeconds: number | undefined;

  constructor(
    subscriberId: string,
    eventId: string | undefined,
    reason: string,
    retryInSeconds: number | undefined,
  ) {
    const when =
      retryInSeconds === undefined ? 'after the queue visibility timeout' : `in ${retryInSeconds} s`;
    super(`delivery to subscriber "${subscriberId}" deferred, next attempt ${when}: ${reason}`);
    this.subscriberId = subscriberId;
    this.eventId = eventId;
    this.retryInSeconds = retryInSeconds;
  }
}
