// Why a delivery function leaves an SQS record on its queue: these errors make Powertools' BatchProcessor
// report the record in batchItemFailures, and their messages are what the log says about it.
import { TransientError } from '../../errors/transientError.js';

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
