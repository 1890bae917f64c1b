// Which subscribers are disabled on AWS, in the state table. The delivery functions disable a subscriber
// whose receiver said it is gone for good (webhook 410, Slack `channel_is_archived`, …); from then on its
// messages go straight to its dead-letter queue, without a request.
//
// | item                | pk                   | sk        | kind               | TTL  |
// |---------------------|----------------------|-----------|--------------------|------|
// | disabled subscriber | SUBSCRIBER#<id>      | DISABLED  | subscriberDisabled | none |
//
// The item also holds `reason` (the receiver's answer, already redacted by the sender) and `disabledAt`
// (RFC 3339). It has no TTL: a gone receiver stays gone until an operator fixes it and enables it again
// (`meal-notifier replay --stack`, which deletes the item); containers notice within the cache time. The stream carries this INSERT too; the publisher ignores any kind but
// `event`.
//
// Lookups are cached per container for a minute: every message would otherwise cost a read, and a
// subscriber disabled elsewhere only costs a few more doomed requests in the meantime.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { DisabledSubscriber, SubscriberStatus } from '../../delivery/subscriberStatus.js';
import { parseStored } from '../parseStored.js';
import { StateTableClient } from './stateTableClient.js';
import type { ItemKey } from './stateTableKeys.js';

export const SUBSCRIBER_DISABLED_KIND = 'subscriberDisabled';
export const SUBSCRIBER_STATUS_CACHE_MS = 60_000;
/** A reason is a receiver's one-line answer; anything longer is cut so the item stays small. */
const MAX_REASON_CHARS = 1_000;

export interface DynamoSubscriberStatusOptions {
  /** Build it once at module scope and share it. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  /** @default Date.now */
  clock?: () => number;
  /** How long a lookup is reused. @default SUBSCRIBER_STATUS_CACHE_MS */
  cacheMs?: number;
}

export function subscriberDisabledKey(subscriberId: string): ItemKey {
  return { pk: `SUBSCRIBER#${subscriberId}`, sk: 'DISABLED' };
}

const DisabledItemSchema = z.object({ reason: z.string(), disabledAt: z.iso.datetime() });

export class DynamoSubscriberStatus implements SubscriberStatus {
  readonly #table: StateTableClient;
  readonly #clock: () => number;
  readonly #cacheMs: number;
  readonly #cache = new Map<string, { status: DisabledSubscriber | undefined; readAt: number }>();

  constructor(options: DynamoSubscriberStatusOptions) {
    this.#table = new StateTableClient({ client: options.client, tableName: options.tableName });
    this.#clock = options.clock ?? Date.now;
    this.#cacheMs = options.cacheMs ?? SUBSCRIBER_STATUS_CACHE_MS;
  }

  /** How long a lookup is reused: how long a container may miss a change made elsewhere. */
  get cacheMs(): number {
    return this.#cacheMs;
  }

  /** Why and since when the subscriber is disabled, or undefined while it is not. */
  async disabled(subscriberId: string): Promise<DisabledSubscriber | undefined> {
    const cached = this.#cache.get(subscriberId);
    if (cached && this.#clock() - cached.readAt < this.#cacheMs) return cached.status;
    const status = await this.#read(subscriberId, false);
    this.#cache.set(subscriberId, { status, readAt: this.#clock() });
    return status;
  }

  async isSubscriberDisabled(subscriberId: string): Promise<boolean> {
    return (await this.disabled(subscriberId)) !== undefined;
  }

  /**
   * Records the subscriber as disabled. A subscriber already disabled keeps its first reason and time, the
   * moment it actually went away; that record is returned.
   */
  async disableSubscriber(
    subscriberId: string,
    reason: string,
    atMs: number = this.#clock(),
  ): Promise<DisabledSubscriber> {
    const status: DisabledSubscriber = {
      subscriberId,
      reason: reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason,
      disabledAt: atMs,
    };
    const written = await this.#table.send(
      'disableSubscriber',
      undefined,
      new PutCommand({
        TableName: this.#table.name,
        Item: {
          ...subscriberDisabledKey(subscriberId),
          kind: SUBSCRIBER_DISABLED_KIND,
          subscriberId,
          reason: status.reason,
          // Stored as RFC 3339 so an operator reading the table sees a time, not a number.
          disabledAt: new Date(status.disabledAt).toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
      { onConditionFailed: () => false as const },
    );
    const stored = written === false ? ((await this.#read(subscriberId, true)) ?? status) : status;
    this.#cache.set(subscriberId, { status: stored, readAt: this.#clock() });
    return stored;
  }

  /**
   * Enables the subscriber again (deletes its record); true when it had been disabled. Delivery functions
   * keep their cached answer for up to the cache time, so they notice within a minute.
   */
  async enableSubscriber(subscriberId: string): Promise<boolean> {
    const result = await this.#table.send(
      'enableSubscriber',
      undefined,
      new DeleteCommand({
        TableName: this.#table.name,
        Key: subscriberDisabledKey(subscriberId),
        ReturnValues: 'ALL_OLD',
      }),
    );
    this.#cache.set(subscriberId, { status: undefined, readAt: this.#clock() });
    return result.Attributes !== undefined;
  }

  async #read(subscriberId: string, consistent: boolean): Promise<DisabledSubscriber | undefined> {
    const { Item: item } = await this.#table.send(
      'subscriberStatus',
      undefined,
      new GetCommand({
        TableName: this.#table.name,
        Key: subscriberDisabledKey(subscriberId),
        ConsistentRead: consistent,
        ProjectionExpression: '#reason, #disabledAt',
        ExpressionAttributeNames: { '#reason': 'reason', '#disabledAt': 'disabledAt' },
      }),
    );
    if (item === undefined) return undefined;
    const record = `disabled-subscriber item of ${subscriberId}`;
    const { reason, disabledAt } = parseStored(
      DisabledItemSchema,
      item,
      'subscriberStatus',
      undefined,
      record,
    );
    return { subscriberId, reason, disabledAt: Date.parse(disabledAt) };
  }
}
