// What can go wrong when the operator commands work on a deployed stack: each error names the resource at
// fault and what to check, in one line, and keeps the AWS error as its `cause`.
import { EXIT_FAILURE, EXIT_USAGE, type ExitCode, NotifierError } from '../errors/notifierError.js';

/** An AWS call on one of the stack's resources failed. */
export class StackAccessError extends NotifierError {
  /** What was being read or written, e.g. `the dead-letter queue of automation`. */
  readonly resource: string;

  constructor(resource: string, detail: string, options?: { cause?: unknown }) {
    super(`cannot reach ${resource}: ${detail}`, options);
    this.resource = resource;
  }

  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return true;
  }
}

/** The stack, or an output the command needs, is not there. */
export class StackOutputsError extends NotifierError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return true;
  }
}

/** The DynamoDB stream no longer holds the records of a failed batch (it keeps them 24 hours). */
export class StreamRecordsGoneError extends NotifierError {
  readonly shardId: string;

  constructor(shardId: string, detail: string, options?: { cause?: unknown }) {
    super(`the stream no longer holds shard ${shardId}'s records (${detail})`, options);
    this.shardId = shardId;
  }

  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return true;
  }
}

/** A replay that cannot be done as asked (an unknown subscriber, an event it would not get, …). */
export class ReplayRefusedError extends NotifierError {
  constructor(message: string) {
    super(message);
  }

  override get exitCode(): ExitCode {
    return EXIT_USAGE;
  }

  override get userFacing(): boolean {
    return true;
  }
}
