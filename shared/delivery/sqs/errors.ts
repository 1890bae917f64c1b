// Why a delivery function leaves an SQS record on its queue: these errors make Powertools' BatchProcessor
// report the record in batchItemFailures, and their messages are what the log says about it.

/** The record came from a queue that QUEUE_SUBSCRIBERS does not name: the stack and the function disagree. */
export class UnknownQueueError extends Error {
  readonly queueArn: string;

  constructor(queueArn: string) {
    super(
      `message from queue ${queueArn}, which QUEUE_SUBSCRIBERS does not name; left for the queue's redrive policy`,
    );
    this.name = new.target.name;
    this.queueArn = queueArn;
  }
}

export class InvalidQueueArnError extends Error {
  constructor(arn: string) {
    super(`"${arn}" is not an SQS queue ARN`);
    this.name = new.target.name;
  }
}

/** The delivery will be tried again later: the message stays on the queue, hidden until then. */
export class DeliveryDeferredError extends Error {
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
    this.name = new.target.name;
    this.subscriberId = subscriberId;
    this.eventId = eventId;
    this.retryInSeconds = retryInSeconds;
  }
}
