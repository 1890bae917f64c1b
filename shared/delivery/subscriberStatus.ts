// Which subscribers are disabled because their receiver said it is gone for good (webhook 410, Slack
// `channel_is_archived`, …). A port: the SQLite outbox serves it locally, the state table on AWS.
import * as z from 'zod';

export const DisabledSubscriberSchema = z.object({
  subscriberId: z.string(),
  reason: z.string(),
  /** Epoch milliseconds. */
  disabledAt: z.number(),
});
export type DisabledSubscriber = z.infer<typeof DisabledSubscriberSchema>;

export interface SubscriberStatus {
  /** Why and since when the subscriber is disabled, or undefined while it is not. */
  disabled(subscriberId: string): Promise<DisabledSubscriber | undefined>;
  /**
   * Records the subscriber as disabled, and stops what is queued for it. A subscriber already disabled
   * keeps its first reason and time, the moment it actually went away; that record is returned.
   */
  disableSubscriber(subscriberId: string, reason: string, atMs: number): Promise<DisabledSubscriber>;
}
