// The kitchen board's message map in the state table (the adapter of boardMessages.ts, for the AWS Slack
// function): a claim is a put with `attribute_not_exists(pk)`, a reply's save a put with
// `version = :read`, so two invocations handling events of one order never post it twice nor land an
// older rendering over a newer one.
//
// | item  | pk                                       | sk                      | kind       | TTL              |
// |-------|------------------------------------------|-------------------------|------------|------------------|
// | board | SLACKBOARDS#<subscriber>                 | BOARD#<establishment>#<day> | slackBoard | day + 14 days |
// | reply | SLACKREPLIES#<subscriber>#<est.>#<day>   | REPLY#<order>           | slackReply | day + 14 days    |
//
// Each item holds the record as `record`, and beside it what conditions and filters read: `version` on a
// reply, `changedAt` on a board (absent once its edit landed). The publisher ignores any kind but `event`.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type BoardKey,
  type BoardMessages,
  type BoardRecord,
  BoardRecordSchema,
  type ReplyRecord,
  ReplyRecordSchema,
} from '../../delivery/slack/board/boardMessages.js';
import { parseStored } from '../parseStored.js';
import { StateTableClient } from './stateTableClient.js';
import {
  ItemKind,
  SLACK_BOARD_PREFIX,
  SLACK_REPLY_PREFIX,
  slackBoardKey,
  slackBoardsPk,
  slackRepliesPk,
  slackReplyKey,
  ttlSeconds,
} from './stateTableKeys.js';

/** How long after its day a board's items stay: long enough for late edits and a look back. */
const KEEP_AFTER_DAY_MS = 14 * 86_400_000;

export interface DynamoBoardMessagesOptions {
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
}

export class DynamoBoardMessages implements BoardMessages {
  readonly #table: StateTableClient;

  constructor(options: DynamoBoardMessagesOptions) {
    this.#table = new StateTableClient({ client: options.client, tableName: options.tableName });
  }

  async board(key: BoardKey): Promise<BoardRecord | undefined> {
    const { Item: item } = await this.#table.send(
      'slackBoard',
      undefined,
      new GetCommand({
        TableName: this.#table.name,
        Key: slackBoardKey(key.subscriberId, key.establishmentUuid, key.day),
        ConsistentRead: true,
      }),
    );
    return item === undefined ? undefined : parseBoard(item.record);
  }

  async claimBoard(record: BoardRecord): Promise<{ claimed: boolean; record: BoardRecord }> {
    const claimed = await this.#table.send('claimSlackBoard', undefined, this.#putBoard(record, true), {
      onConditionFailed: () => false as const,
    });
    if (claimed !== false) return { claimed: true, record };
    return { claimed: false, record: (await this.board(record)) ?? record };
  }

  async saveBoard(record: BoardRecord): Promise<void> {
    await this.#table.send('saveSlackBoard', undefined, this.#putBoard(record, false));
  }

  async markChanged(key: BoardKey, at: number): Promise<void> {
    await this.#table.send(
      'markSlackBoardChanged',
      undefined,
      new UpdateCommand({
        TableName: this.#table.name,
        Key: slackBoardKey(key.subscriberId, key.establishmentUuid, key.day),
        UpdateExpression: 'SET changedAt = :at, #record.changedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#record': 'record' },
        ExpressionAttributeValues: { ':at': at },
      }),
      // No board yet: nothing to edit, its post will show the change.
      { onConditionFailed: () => undefined },
    );
  }

  async finishRender(record: BoardRecord, startedAt: number): Promise<void> {
    const rendered = { ...record, changedAt: null };
    const cleared = await this.#table.send(
      'saveRenderedSlackBoard',
      undefined,
      new PutCommand({
        ...this.#putBoard(rendered, false).input,
        // Marked after the render began: that change is not on the board yet, so it must stay owed.
        ConditionExpression: 'attribute_not_exists(changedAt) OR changedAt <= :startedAt',
        ExpressionAttributeValues: { ':startedAt': startedAt },
      }),
      { onConditionFailed: () => false as const },
    );
    if (cleared !== false) return;
    // Refused: the stored mark is later than the render's start, and is kept with the rendered ts.
    const stored = await this.board(record);
    await this.saveBoard({ ...record, changedAt: stored?.changedAt ?? null });
  }

  async boardsToRender(subscriberId: string): Promise<BoardRecord[]> {
    const records: BoardRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.#table.send(
        'slackBoardsToRender',
        undefined,
        new QueryCommand({
          TableName: this.#table.name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: 'attribute_exists(changedAt)',
          ExpressionAttributeValues: { ':pk': slackBoardsPk(subscriberId), ':prefix': SLACK_BOARD_PREFIX },
          ConsistentRead: true,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      for (const item of page.Items ?? []) records.push(parseBoard(item.record));
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return records.sort((a, b) => (a.changedAt ?? 0) - (b.changedAt ?? 0));
  }

  async replies(key: BoardKey): Promise<ReplyRecord[]> {
    const records: ReplyRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.#table.send(
        'slackReplies',
        undefined,
        new QueryCommand({
          TableName: this.#table.name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': slackRepliesPk(key.subscriberId, key.establishmentUuid, key.day),
            ':prefix': SLACK_REPLY_PREFIX,
          },
          ConsistentRead: true,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      for (const item of page.Items ?? []) records.push(parseReply(item.record));
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return records;
  }

  async reply(key: BoardKey, orderUuid: string): Promise<ReplyRecord | undefined> {
    const { Item: item } = await this.#table.send(
      'slackReply',
      undefined,
      new GetCommand({
        TableName: this.#table.name,
        Key: slackReplyKey(key.subscriberId, key.establishmentUuid, key.day, orderUuid),
        ConsistentRead: true,
      }),
    );
    return item === undefined ? undefined : parseReply(item.record);
  }

  async claimReply(record: ReplyRecord): Promise<{ claimed: boolean; record: ReplyRecord }> {
    const claimed = await this.#table.send(
      'claimSlackReply',
      undefined,
      this.#putReply(record, { ConditionExpression: 'attribute_not_exists(pk)' }),
      { onConditionFailed: () => false as const },
    );
    if (claimed !== false) return { claimed: true, record };
    return { claimed: false, record: (await this.reply(record, record.orderUuid)) ?? record };
  }

  async saveReply(record: ReplyRecord, expectedVersion: string): Promise<boolean> {
    const saved = await this.#table.send(
      'saveSlackReply',
      undefined,
      this.#putReply(record, {
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': expectedVersion },
      }),
      { onConditionFailed: () => false as const },
    );
    return saved !== false;
  }

  #putBoard(record: BoardRecord, claim: boolean): PutCommand {
    const parsed = BoardRecordSchema.parse(record);
    return new PutCommand({
      TableName: this.#table.name,
      Item: {
        ...slackBoardKey(parsed.subscriberId, parsed.establishmentUuid, parsed.day),
        kind: ItemKind.slackBoard,
        record: parsed,
        ...(parsed.changedAt === null ? {} : { changedAt: parsed.changedAt }),
        expiresAt: expiryOf(parsed.day),
      },
      ...(claim ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
    });
  }

  #putReply(
    record: ReplyRecord,
    condition: { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> },
  ): PutCommand {
    const parsed = ReplyRecordSchema.parse(record);
    return new PutCommand({
      TableName: this.#table.name,
      Item: {
        ...slackReplyKey(parsed.subscriberId, parsed.establishmentUuid, parsed.day, parsed.orderUuid),
        kind: ItemKind.slackReply,
        record: parsed,
        version: parsed.version,
        expiresAt: expiryOf(parsed.day),
      },
      ...condition,
    });
  }
}

function expiryOf(day: string): number {
  const dayMs = Date.parse(`${day}T00:00:00Z`);
  return ttlSeconds((Number.isNaN(dayMs) ? Date.now() : dayMs) + KEEP_AFTER_DAY_MS);
}

function parseBoard(value: unknown): BoardRecord {
  return parseStored(BoardRecordSchema, value, 'read the Slack board', undefined, 'Slack board item');
}

function parseReply(value: unknown): ReplyRecord {
  return parseStored(ReplyRecordSchema, value, 'read the Slack reply', undefined, 'Slack reply item');
}
