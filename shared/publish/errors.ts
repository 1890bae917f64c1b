// What the publisher refuses outright: a stream record it could not report back as a partial failure.

export class StreamRecordError extends Error {
  readonly eventId: string | undefined;

  constructor(eventId: string | undefined, problem: string) {
    super(`stream record ${eventId ?? '(no eventID)'} ${problem}; the whole batch is retried`);
    this.name = new.target.name;
    this.eventId = eventId;
  }
}
