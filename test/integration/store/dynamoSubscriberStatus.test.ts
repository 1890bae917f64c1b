// Disabled subscribers in the state table (DynamoDB Local): recorded once with the first reason, read back
// by any container, and cached per container for a minute.
import { DeleteCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DynamoSubscriberStatus,
  SUBSCRIBER_DISABLED_KIND,
  SUBSCRIBER_STATUS_CACHE_MS,
  subscriberDisabledKey,
} from '../../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';

let table: LocalTable;
let documents: DynamoDBDocumentClient;

beforeAll(async () => {
  table = await createLocalStateTable();
  documents = DynamoDBDocumentClient.from(table.client);
});

afterAll(async () => {
  await table.drop();
});

function statusStore(clock: () => number = Date.now) {
  return new DynamoSubscriberStatus({ client: table.client, tableName: table.tableName, clock });
}

describe('DynamoSubscriberStatus', () => {
  it('stores a disabled subscriber as SUBSCRIBER#<id> / DISABLED with its reason and time', async () => {
    const at = Date.parse('2026-11-20T10:00:00.000Z');
    await statusStore().disableSubscriber('hooks-a', 'https://hooks.example.test answered 410', at);

    const { Item } = await documents.send(
      new GetCommand({ TableName: table.tableName, Key: subscriberDisabledKey('hooks-a') }),
    );
    expect(Item).toEqual({
      pk: 'SUBSCRIBER#hooks-a',
      sk: 'DISABLED',
      kind: SUBSCRIBER_DISABLED_KIND,
      subscriberId: 'hooks-a',
      reason: 'https://hooks.example.test answered 410',
      disabledAt: '2026-11-20T10:00:00.000Z',
    });
    // Another container learns it from the table.
    expect(await statusStore().disabled('hooks-a')).toEqual({
      subscriberId: 'hooks-a',
      reason: 'https://hooks.example.test answered 410',
      disabledAt: Date.parse('2026-11-20T10:00:00.000Z'),
    });
  });

  it('keeps the first reason and time when a subscriber is disabled twice', async () => {
    await statusStore().disableSubscriber('hooks-b', 'first 410', Date.parse('2026-11-20T10:00:00Z'));
    const again = await statusStore().disableSubscriber(
      'hooks-b',
      'second 410',
      Date.parse('2026-11-21T10:00:00Z'),
    );
    expect(again).toMatchObject({ reason: 'first 410', disabledAt: Date.parse('2026-11-20T10:00:00.000Z') });
  });

  it('says a subscriber never disabled is enabled', async () => {
    const status = statusStore();
    expect(await status.disabled('never-disabled')).toBeUndefined();
    expect(await status.isSubscriberDisabled('never-disabled')).toBe(false);
  });

  it('reuses a lookup for a minute, then reads the table again', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const status = statusStore(() => now);
    await statusStore().disableSubscriber('hooks-c', '410', now);
    expect(await status.isSubscriberDisabled('hooks-c')).toBe(true);

    // An operator re-enables the subscriber by deleting the item.
    await documents.send(
      new DeleteCommand({ TableName: table.tableName, Key: subscriberDisabledKey('hooks-c') }),
    );
    now += SUBSCRIBER_STATUS_CACHE_MS - 1;
    expect(await status.isSubscriberDisabled('hooks-c')).toBe(true);
    now += 1;
    expect(await status.isSubscriberDisabled('hooks-c')).toBe(false);
  });

  it('knows at once about a subscriber it disabled itself', async () => {
    const status = statusStore();
    expect(await status.isSubscriberDisabled('hooks-d')).toBe(false);
    await status.disableSubscriber('hooks-d', 'channel_is_archived');
    expect(await status.isSubscriberDisabled('hooks-d')).toBe(true);
  });

  it('enables a subscriber again by deleting its record, and says whether it had been disabled', async () => {
    const status = statusStore();
    await status.disableSubscriber('hooks-e', '410');

    expect(await status.enableSubscriber('hooks-e')).toBe(true);
    expect(await statusStore().disabled('hooks-e')).toBeUndefined();
    expect(await status.isSubscriberDisabled('hooks-e')).toBe(false);
    expect(await status.enableSubscriber('hooks-e')).toBe(false);
  });
});
