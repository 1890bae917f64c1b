// The port to the publisher's failure queue: the stream's on-failure destination, where Lambda records each
// batch of stream records the publisher gave up on (their shard and sequence numbers, not the events).
// The SQS adapter is the CLI's.

/** One message of the failure queue, taken for a while (others do not see it) but not deleted. */
export interface FailureQueueMessage {
  messageId: string;
  /** Deletes it: `remove(receiptHandle)`. */
  receiptHandle: string;
  body: string;
}

export interface PublisherFailureQueue {
  /** Messages on the queue. */
  depth(): Promise<number>;
  /** The next messages (up to 10); none when the queue has nothing more to give. */
  receive(): Promise<FailureQueueMessage[]>;
  remove(receiptHandle: string): Promise<void>;
}
