// What can go wrong when the operator commands work on a deployed stack: each error names the resource at
// fault and what to check, in one line, and keeps the AWS error as its `cause`.

/** An AWS call on one of the stack's resources failed. */
export class StackAccessError extends Error {
  /** What was being read or written, e.g. `the dead-letter queue of automation`. */
  readonly resource: string;

  constructor(resource: string, detail: string, options?: { cause?: unknown }) {
    super(`cannot reach ${resource}: ${detail}`, { cause: options?.cause });
    this.name = new.target.name;
    this.resource = resource;
  }
}

/** The stack, or an output the command needs, is not there. */
export class StackOutputsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = new.target.name;
  }
}

/** The DynamoDB stream no longer holds the records of a failed batch (it keeps them 24 hours). */
export class StreamRecordsGoneError extends Error {
  readonly shardId: string;

  constructor(shardId: string, detail: string, options?: { cause?: unknown }) {
    super(`the stream no longer holds shard ${shardId}'s records (${detail})`, { cause: options?.cause });
    this.name = new.target.name;
    this.shardId = shardId;
  }
}

/** A replay that cannot be done as asked (an unknown subscriber, an event it would not get, …). */
export class ReplayRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
