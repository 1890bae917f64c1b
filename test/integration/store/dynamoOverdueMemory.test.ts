// The watchdog's memory of its last overdue notice in the state table (DynamoDB Local): empty at first,
// then what it saved, in one small item of its own.
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoOverdueMemory } from '../../../shared/store/dynamo/dynamoOverdueMemory.js';
import { overdueNoticeKey } from '../../../shared/store/dynamo/stateTableKeys.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';

let table: LocalTable;

beforeAll(async () => {
  table = await createLocalStateTable();
});

afterAll(async () => {
  await table.drop();
});

describe('DynamoOverdueMemory', () => {
  it('reads nothing before the first notice, then the organizations saved, kept as WATCHDOG / OVERDUE', async () => {
    const memory = new DynamoOverdueMemory({ client: table.client, tableName: table.tableName });
    expect(await memory.load()).toEqual([]);
    await memory.save(['north', 'south']);
    await memory.save(['south']);
    expect(await memory.load()).toEqual(['south']);
    const { Item } = await DynamoDBDocumentClient.from(table.client).send(
      new GetCommand({ TableName: table.tableName, Key: overdueNoticeKey() }),
    );
    expect(Item).toEqual({ pk: 'WATCHDOG', sk: 'OVERDUE', kind: 'overdueNotice', organizations: ['south'] });
  });
});
