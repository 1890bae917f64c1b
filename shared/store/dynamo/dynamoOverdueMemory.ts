// The watchdog's memory of the organizations it last announced as overdue, one small item in the state
// table (stateTableKeys.ts): read and written once a minute by one function, so a plain put is enough; two
// runs at once at worst send one notice twice.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { OverdueMemory } from '../../poll/overdueNotice.js';
import { parseStored } from '../parseStored.js';
import { StateTableClient } from './stateTableClient.js';
import { ItemKind, overdueNoticeKey } from './stateTableKeys.js';

const OverdueNoticeItemSchema = z.object({ organizations: z.array(z.string()) });

export class DynamoOverdueMemory implements OverdueMemory {
  readonly #table: StateTableClient;

  constructor(options: { client: DynamoDBDocumentClient | DynamoDBClient; tableName: string }) {
    this.#table = new StateTableClient(options);
  }

  async load(): Promise<readonly string[]> {
    const { Item } = await this.#table.send(
      'loadOverdueNotice',
      undefined,
      new GetCommand({ TableName: this.#table.name, Key: overdueNoticeKey() }),
    );
    if (Item === undefined) return [];
    return parseStored(
      OverdueNoticeItemSchema,
      Item,
      'loadOverdueNotice',
      undefined,
      'the watchdog’s overdue notice',
    ).organizations;
  }

  async save(organizationIds: readonly string[]): Promise<void> {
    await this.#table.send(
      'saveOverdueNotice',
      undefined,
      new PutCommand({
        TableName: this.#table.name,
        Item: { ...overdueNoticeKey(), kind: ItemKind.overdueNotice, organizations: [...organizationIds] },
      }),
    );
  }
}
