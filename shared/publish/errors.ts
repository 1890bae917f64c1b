// What the publisher refuses outright: a stream record it could not report back as a partial failure.
import { EXIT_FAILURE, type ExitCode, NotifierError } from '../errors/notifierError.js';

export class StreamRecordError extends NotifierError {
  readonly eventId: string | undefined;

  constructor(eventId: string | undefined, problem: string) {
    super(`stream record ${eventId ?? '(no eventID)'} ${problem}; the whole batch is retried`);
    this.eventId = eventId;
  }

  /** DynamoDB Streams always sends these fields: a record without them is not a user's to fix. */
  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return false;
  }
}
