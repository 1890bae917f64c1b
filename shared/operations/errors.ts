// What can go wrong when the operator commands work on a deployed stack: each error names the resource at
// fault and what to check, in one line, and keeps the AWS error as its `cause`.
import { FixByHandError } from '../errors/fixByHandError.js';
import { TransientError } from '../errors/transientError.js';

/** An AWS call on one of the stack's resources failed. */
export class StackAccessError extends TransientError {
  /** What was being read or written, e.g. `the dead-letter queue of automation`. */
  readonly resource: string;

  constructor(resource: string, detail: string, options?: { cause?: unknown }) {
    super(`cannot reach ${resource}: ${detail}`, options);
    this.resource = resource;
  }
}

/** The stack, or an output the command needs, is not there. */
export class StackOutputsError extends TransientError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The DynamoDB stream no longer holds the records of a failed batch (it keeps them 24 hours). */
export class StreamRecordsGoneError extends TransientError {
  readonly shardId: string;

  constructor(shardId: string, detail: string, options?: { cause?: unknown }) {
    super(`the stream no longer holds shard ${shardId}'s records (${detail})`, options);
    this.shardId = shardId;
  }
}

/** A replay that cannot be done as asked (an unknown subscriber, an event it would not get, …). */
export class ReplayRefusedError extends FixByHandError {
  constructor(message: string) {
    super(message);
  }
}
