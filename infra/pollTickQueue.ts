// The poller's tick queue: each poll cycle sends one message here, delayed until the organization's next
// cycle is due, so cycles follow the token's budget rather than Scheduler's one-minute floor.
import { Duration, Validations } from 'aws-cdk-lib';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { AWS_POLLER_TIMEOUT_SECONDS } from '../shared/contracts/awsPollSettings.js';
import { secureQueue } from './secureQueue.js';

/** The poller's timeout, from the contract pollerFunction.ts sets it from (which takes this construct). */
const POLLER_TIMEOUT = Duration.seconds(AWS_POLLER_TIMEOUT_SECONDS);

/**
 * How many poller timeouts a taken tick stays hidden: 6, as AWS advises for an SQS event source (Lambda's
 * poller may hold a message a while before the invocation starts, and retries a throttled one). With one,
 * a cycle that ran long came back while it still ran: the second invocation found the lease held.
 */
export const TICK_VISIBILITY_TIMEOUTS = 6;

/** The longest delay SQS gives a message: a tick due later than this arrives early and is not due. */
const MAX_TICK_DELAY = Duration.minutes(15);

export interface PollTickQueueProps {
  /**
   * How long a tick nobody took is kept. Short, since a stale tick is worthless: the minute schedule has
   * restarted the chain long before. The longest delay SQS allows (15 minutes) plus 5 minutes, so that a
   * tick delayed that long is not dropped the moment it becomes visible.
   * @default Duration.minutes(20)
   */
  readonly retentionPeriod?: Duration;
  /**
   * How long a tick the poller took stays hidden. At least 6 times the poller's timeout, as AWS advises
   * for SQS event sources. A tick whose invocation crashed comes back after it if still kept (then it costs
   * one state read), or is dropped with the retention period: the minute schedule restarts the chain.
   * @default 6 × POLLER_TIMEOUT (24 minutes)
   */
  readonly visibilityTimeout?: Duration;
}

export class PollTickQueue extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string, props: PollTickQueueProps = {}) {
    super(scope, id);
    const retentionPeriod = props.retentionPeriod ?? MAX_TICK_DELAY.plus(Duration.minutes(5));
    const least = TICK_VISIBILITY_TIMEOUTS * POLLER_TIMEOUT.toSeconds();
    const visibilityTimeout = props.visibilityTimeout ?? Duration.seconds(least);
    if (visibilityTimeout.toSeconds() < least) {
      throw new Error(
        `visibilityTimeout must be at least ${TICK_VISIBILITY_TIMEOUTS} times the poller's ${POLLER_TIMEOUT.toSeconds()} s timeout (${least} s)`,
      );
    }
    this.queue = secureQueue(this, 'Queue', { retentionPeriod, visibilityTimeout });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'Ticks are disposable: a tick that cannot be handled is only a missed trigger, and the per-minute poll schedule (the watchdog) starts a new chain of ticks within a minute. A dead-letter queue would collect worthless messages and raise alarms about nothing.',
    });
  }
}
