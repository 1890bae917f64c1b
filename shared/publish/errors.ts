// What the publisher refuses outright: a stream record it could not report back as a partial failure.
import { InternalError } from '../errors/internalError.js';

/** DynamoDB Streams always sends these fields: a record without them is not a user's to fix. */
export class StreamRecordError extends InternalError {
  readonly eventId: string | undefined;

  constructor(eventId: string | undefined, problem: string) {
    super(`stream record ${eventId ?? '(no eventID)'} ${problem}; the whole batch is retried`);
    this.eventId = eventId;
  }
}
