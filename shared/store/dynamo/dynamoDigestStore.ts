// The digest store on the state table (AWS): the period's events come from the event log, and each digest
// is claimed by a conditional Put of an item keyed by its deterministic id before it is published, then
// marked sent. A re-run of the schedule for the same period finds the claim and sends nothing; a claim
// whose publish never got marked (the function died between the two) is taken again once it is stale, so
// a digest is sent at least once and, outside that crash window, exactly once. A digest too big for one
// item is split before it is claimed (DIGEST_CLAIM_ITEM_LIMIT), each part claimed under its own id.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DigestStore } from '../../delivery/digest/digestStore.js';
import type { DigestSizeLimit } from '../../delivery/digest/splitDigest.js';
import type { DigestEvent } from '../../events/digestEvent.js';
import { DYNAMO_ITEM_MAX_BYTES } from '../pollStateSize.js';
import { DEFAULT_EVENT_RETENTION_MS, type StoredEvent } from '../stateStore.js';
import { digestToWrite } from '../storedRecords.js';
import { DynamoStateStore } from './dynamoStateStore.js';
import { StateTableClient } from './stateTableClient.js';
import { digestKey, ItemKind, ttlSeconds } from './stateTableKeys.js';

/** DynamoDB's most bytes in one item, the poll state's policy's (pollStateSize.ts). */
export { DYNAMO_ITEM_MAX_BYTES };

/** The item that claims a digest (or one part of it): its key, who it is for, when, and the digest. */
function digestClaimItem(organizationId: string, digest: DigestEvent, nowMs: number, expiresAtMs: number) {
  return {
    ...digestKey(organizationId, digest.id),
    kind: ItemKind.digest,
    subscriberId: digest.data.subscriber_id,
    claimedAt: nowMs,
    expiresAt: ttlSeconds(expiresAtMs),
    payload: JSON.stringify(digest),
  };
}

/**
 * The claim item's size as DynamoDB counts it, from above: each attribute's name and value in UTF-8, a
 * number at its most (21 bytes). The sentAt a later update adds is counted too.
 */
export function digestClaimItemBytes(digest: DigestEvent): number {
  const item: Record<string, unknown> = {
    ...digestClaimItem(digest.data.organization.id, digest, 0, 0),
    sentAt: 0,
  };
  return Object.entries(item).reduce(
    (bytes, [name, value]) =>
      bytes + Buffer.byteLength(name) + (typeof value === 'number' ? 21 : Buffer.byteLength(String(value))),
    0,
  );
}

/** What a digest message must fit to be claimed in the state table (splitDigest.ts). */
export const DIGEST_CLAIM_ITEM_LIMIT: DigestSizeLimit = {
  name: 'DynamoDB item',
  maxBytes: DYNAMO_ITEM_MAX_BYTES,
  sizeOf: digestClaimItemBytes,
};

/** Longer than the digest function's timeout, so a claim is only taken again from a run that is gone. */
export const DEFAULT_DIGEST_CLAIM_TIMEOUT_MS = 15 * 60_000;

export interface DynamoDigestStoreOptions {
  /** Build it once at module scope and share it. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  /** How long a claim that was never marked sent holds. @default DEFAULT_DIGEST_CLAIM_TIMEOUT_MS */
  claimTimeoutMs?: number;
  /** How long a digest's claim is kept (its TTL). @default DEFAULT_EVENT_RETENTION_MS, as events */
  retentionMs?: number;
  /** @default Date.now */
  clock?: () => number;
}

export class DynamoDigestStore implements DigestStore {
  readonly #table: StateTableClient;
  readonly #events: DynamoStateStore;
  readonly #claimTimeoutMs: number;
  readonly #retentionMs: number;
  readonly #clock: () => number;

  constructor(options: DynamoDigestStoreOptions) {
    this.#table = new StateTableClient({ client: options.client, tableName: options.tableName });
    this.#events = new DynamoStateStore({ client: this.#table.client, tableName: options.tableName });
    this.#claimTimeoutMs = options.claimTimeoutMs ?? DEFAULT_DIGEST_CLAIM_TIMEOUT_MS;
    this.#retentionMs = options.retentionMs ?? DEFAULT_EVENT_RETENTION_MS;
    this.#clock = options.clock ?? (() => Date.now());
  }

  listEvents(organizationId: string, sinceMs: number): Promise<StoredEvent[]> {
    return this.#events.listEvents(organizationId, sinceMs);
  }

  /**
   * Claims the digest for sending: true when this run is to publish it (a new claim, or a stale one never
   * marked sent), false when it is sent or another run holds it.
   */
  async recordDigest(organizationId: string, digest: DigestEvent): Promise<boolean> {
    const parsed = digestToWrite(organizationId, digest);
    const now = this.#clock();
    const claimed = await this.#table.send(
      'recordDigest',
      organizationId,
      new PutCommand({
        TableName: this.#table.name,
        Item: digestClaimItem(organizationId, parsed, now, now + this.#retentionMs),
        ConditionExpression:
          'attribute_not_exists(#pk) OR (attribute_not_exists(#sentAt) AND #claimedAt < :stale)',
        ExpressionAttributeNames: { '#pk': 'pk', '#sentAt': 'sentAt', '#claimedAt': 'claimedAt' },
        ExpressionAttributeValues: { ':stale': now - this.#claimTimeoutMs },
      }),
      { onConditionFailed: () => false as const },
    );
    return claimed !== false;
  }

  /** Marks a claimed digest published, so no later run sends it again. */
  async markDigestSent(organizationId: string, digestId: string): Promise<void> {
    await this.#table.send(
      'markDigestSent',
      organizationId,
      new UpdateCommand({
        TableName: this.#table.name,
        Key: digestKey(organizationId, digestId),
        UpdateExpression: 'SET #sentAt = :now',
        ConditionExpression: 'attribute_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'pk', '#sentAt': 'sentAt' },
        ExpressionAttributeValues: { ':now': this.#clock() },
      }),
    );
  }
}
