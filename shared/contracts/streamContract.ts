// What the CDK stack needs to know about the publisher's event source. Import it from here, never from
// functions/publisher/handler.ts: that module parses its environment at import.
//
// The publisher reads the state table's stream (NEW_IMAGE) and needs only `TOPIC_ARN` (the SNS topic) in
// its environment, and sns:Publish on that topic (PublishBatch is authorized as Publish; with a KMS-encrypted
// topic, also kms:GenerateDataKey and kms:Decrypt on its key). The event source mapping must enable
// ReportBatchItemFailures: the handler answers with the SequenceNumbers of the records that failed.
import { ItemKind } from '../store/dynamo/stateTableKeys.js';

/**
 * An event source mapping filter (Lambda filter-pattern syntax) that lets only new event items through, so
 * the function is not invoked for snapshot, poll-state, lease, budget or disabled-subscriber writes. The
 * handler ignores those anyway; the filter only saves invocations.
 */
export const PUBLISHER_STREAM_FILTER_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { kind: { S: [ItemKind.event] } } },
} as const;
