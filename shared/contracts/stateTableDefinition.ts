// The one DynamoDB table behind the state store: its keys, TTL and stream, shared by the adapter, the tests
// that create it on DynamoDB Local and the CDK stack, so all three always agree.
//
// Single-table design. Every key is a string pair (pk, sk); `kind` names the item type so a stream consumer
// can filter without parsing keys.
//
// | item        | pk                  | sk                   | kind        | TTL (`expiresAt`, epoch s)          |
// |-------------|---------------------|----------------------|-------------|-------------------------------------|
// | snapshot    | ORG#<organization>  | SNAP#<order uuid>    | snapshot    | ttlSeconds(snapshot.expiresAt)      |
// | event       | ORG#<organization>  | EVENT#<event id>     | event       | recordedAt + retention (14 d)       |
// | poll state  | ORG#<organization>  | STATE                | pollState   | none                                |
// | lease       | ORG#<organization>  | FENCE                | lease       | none (its fencing token only grows) |
// | budget log  | BUDGET#<token key>  | LOG                  | budget      | last use + 1 d                      |
// | digest      | ORG#<organization>  | DIGEST#<digest id>   | digest      | claimedAt + retention (14 d)        |
// | disabled    | SUBSCRIBER#<id>     | DISABLED             | subscriberDisabled | none (delete to re-enable)   |
//
// - Snapshots of an organization are one Query (pk = ORG#…, begins_with(sk, 'SNAP#')), never per-order reads.
// - An event's key is its deterministic id, so `attribute_not_exists(pk)` on the Put makes the log
//   idempotent: the same transition seen twice is written once. The event log is the outbox: the table's
//   stream (NEW_IMAGE) carries each INSERT of `kind = event` to the publisher. Event items hold the full
//   CloudEvent as JSON (`payload`) plus `eventType`, `recordedAt` and `position` (order within a commit),
//   and `sourceTime` when the API dated the change (the publisher's `audience`: stale or not).
// - The lease against overlapping runs is a small item of its own (`leaseOwner`, `leaseUntil`, and a
//   `fenceToken` each claim raises), so claiming it and checking it in every commit's transaction cost a
//   write unit rather than the poll state's size. The poll state save is fenced by that token (the
//   state's `fenceToken` is never above the saver's) in one UpdateItem; the lease goes back after it.
//   Neither item has a TTL, and only `event` items pass the publisher's stream filter (streamContract.ts).
// - Listing events is a Query on the organization's EVENT# range with a filter on recordedAt: events are
//   few and TTL'd, so no index is needed for the local-only listEvents.
// - Attribute names are always aliased in expressions, since several (status, owner…) are reserved words.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const stateTableDefinition = {
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  keySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  attributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
  ],
  /** Epoch seconds (ttlSeconds, the one time in seconds); DynamoDB deletes items some time after it. */
  timeToLiveAttribute: 'expiresAt',
  /** The publisher needs only what was written. */
  streamViewType: 'NEW_IMAGE',
  billingMode: 'PAY_PER_REQUEST',
} as const;

/** The CreateTable request for the state table under `tableName` (tests; the CDK stack builds its own). */
export function createStateTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    KeySchema: [...stateTableDefinition.keySchema],
    AttributeDefinitions: [...stateTableDefinition.attributeDefinitions],
    BillingMode: stateTableDefinition.billingMode,
    StreamSpecification: { StreamEnabled: true, StreamViewType: stateTableDefinition.streamViewType },
  };
}
