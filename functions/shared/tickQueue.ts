// The tick that triggers an organization's next poll cycle: one SQS message on the tick queue, delayed
// until the cycle is due, whose body names the organization and the due time.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { tickDelaySeconds } from '../../shared/poll/pollWhenDue.js';

/** A tick's message body, as the poller sends and reads it. */
export const TickSchema = z.object({
  organizationId: z.string().min(1),
  /** When the cycle is due (epoch ms); a tick that arrives earlier finds it not due and ends its chain. */
  dueAt: z.number().int().nonnegative(),
});
export type Tick = z.infer<typeof TickSchema>;

/** What the poller needs of the tick queue; TickQueue is one, tests pass their own. */
export interface TickSender {
  /** Sends `tick`, delayed until its due time as seen at `nowMs`; returns the delay in seconds. */
  send(tick: Tick, nowMs: number): Promise<number>;
}

export class TickQueue implements TickSender {
  /**
   * @param client build it once per container and share it; it is never destroyed here
   */
  constructor(
    private readonly queueUrl: string,
    private readonly client: SQSClient = new SQSClient({}),
  ) {}

  /** @throws the SQS error: the chain is broken until the schedule restarts it, which the caller logs */
  async send(tick: Tick, nowMs: number): Promise<number> {
    const delaySeconds = tickDelaySeconds(tick.dueAt, nowMs);
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify({ organizationId: tick.organizationId, dueAt: tick.dueAt }),
        DelaySeconds: delaySeconds,
      }),
    );
    return delaySeconds;
  }
}
