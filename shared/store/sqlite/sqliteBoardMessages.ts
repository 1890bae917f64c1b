// The kitchen board's message map in the SQLite state file (the adapter of boardMessages.ts): a claim is
// `INSERT … ON CONFLICT DO NOTHING`, a reply's save a `WHERE version = ?`, so two runners on one file never
// post one order twice nor land an older rendering over a newer one.
import type Database from 'better-sqlite3';
import {
  type BoardKey,
  type BoardMessages,
  type BoardRecord,
  BoardRecordSchema,
  type ReplyRecord,
  ReplyRecordSchema,
} from '../../delivery/slack/board/boardMessages.js';
import { parseStored } from '../parseStored.js';
import { guarded } from './sqliteErrors.js';

type KeyParams = [string, string, string];

function keyOf({ subscriberId, establishmentUuid, day }: BoardKey): KeyParams {
  return [subscriberId, establishmentUuid, day];
}

export class SqliteBoardMessages implements BoardMessages {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  async board(key: BoardKey): Promise<BoardRecord | undefined> {
    const row = guarded('read the Slack board', undefined, () =>
      this.#db
        .prepare<KeyParams, { data: string }>(
          'SELECT data FROM slack_boards WHERE subscriber_id = ? AND establishment_uuid = ? AND day = ?',
        )
        .get(...keyOf(key)),
    );
    return row === undefined ? undefined : parseBoard(row.data);
  }

  async claimBoard(record: BoardRecord): Promise<{ claimed: boolean; record: BoardRecord }> {
    const data = JSON.stringify(BoardRecordSchema.parse(record));
    const inserted = guarded('claim the Slack board', undefined, () =>
      this.#db
        .prepare<[...KeyParams, number | null, string]>(
          `INSERT INTO slack_boards (subscriber_id, establishment_uuid, day, changed_at, data)
           VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .run(...keyOf(record), record.changedAt, data),
    );
    if (inserted.changes === 1) return { claimed: true, record };
    const stored = await this.board(record);
    return { claimed: false, record: stored ?? record };
  }

  async saveBoard(record: BoardRecord): Promise<void> {
    const data = JSON.stringify(BoardRecordSchema.parse(record));
    guarded('save the Slack board', undefined, () =>
      this.#db
        .prepare<[...KeyParams, number | null, string]>(
          `INSERT INTO slack_boards (subscriber_id, establishment_uuid, day, changed_at, data)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT DO UPDATE SET changed_at = excluded.changed_at, data = excluded.data`,
        )
        .run(...keyOf(record), record.changedAt, data),
    );
  }

  async markChanged(key: BoardKey, at: number): Promise<void> {
    guarded('mark the Slack board changed', undefined, () =>
      this.#db
        .prepare<[number, number, ...KeyParams]>(
          `UPDATE slack_boards SET changed_at = ?, data = json_set(data, '$.changedAt', ?)
           WHERE subscriber_id = ? AND establishment_uuid = ? AND day = ?`,
        )
        .run(at, at, ...keyOf(key)),
    );
  }

  async finishRender(record: BoardRecord, startedAt: number): Promise<void> {
    // One statement: the stored changed_at is read and kept, or cleared, in the same write.
    const data = JSON.stringify(BoardRecordSchema.parse({ ...record, changedAt: null }));
    const [subscriberId, establishmentUuid, day] = keyOf(record);
    guarded('save the rendered Slack board', undefined, () =>
      this.#db
        .prepare<{
          data: string;
          startedAt: number;
          subscriberId: string;
          establishmentUuid: string;
          day: string;
        }>(
          `UPDATE slack_boards
           SET data = CASE WHEN changed_at > @startedAt THEN json_set(@data, '$.changedAt', changed_at) ELSE @data END,
               changed_at = CASE WHEN changed_at > @startedAt THEN changed_at ELSE NULL END
           WHERE subscriber_id = @subscriberId AND establishment_uuid = @establishmentUuid AND day = @day`,
        )
        .run({ data, startedAt, subscriberId, establishmentUuid, day }),
    );
  }

  async boardsToRender(subscriberId: string): Promise<BoardRecord[]> {
    const rows = guarded('read the Slack boards', undefined, () =>
      this.#db
        .prepare<[string], { data: string }>(
          'SELECT data FROM slack_boards WHERE subscriber_id = ? AND changed_at IS NOT NULL ORDER BY changed_at',
        )
        .all(subscriberId),
    );
    return rows.map((row) => parseBoard(row.data));
  }

  async replies(key: BoardKey): Promise<ReplyRecord[]> {
    const rows = guarded('read the Slack replies', undefined, () =>
      this.#db
        .prepare<KeyParams, { data: string }>(
          'SELECT data FROM slack_replies WHERE subscriber_id = ? AND establishment_uuid = ? AND day = ?',
        )
        .all(...keyOf(key)),
    );
    return rows.map((row) => parseReply(row.data));
  }

  async reply(key: BoardKey, orderUuid: string): Promise<ReplyRecord | undefined> {
    const row = guarded('read the Slack reply', undefined, () =>
      this.#db
        .prepare<[...KeyParams, string], { data: string }>(
          `SELECT data FROM slack_replies
           WHERE subscriber_id = ? AND establishment_uuid = ? AND day = ? AND order_uuid = ?`,
        )
        .get(...keyOf(key), orderUuid),
    );
    return row === undefined ? undefined : parseReply(row.data);
  }

  async claimReply(record: ReplyRecord): Promise<{ claimed: boolean; record: ReplyRecord }> {
    const data = JSON.stringify(ReplyRecordSchema.parse(record));
    const inserted = guarded('claim the Slack reply', undefined, () =>
      this.#db
        .prepare<[...KeyParams, string, string, string]>(
          `INSERT INTO slack_replies (subscriber_id, establishment_uuid, day, order_uuid, version, data)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .run(...keyOf(record), record.orderUuid, record.version, data),
    );
    if (inserted.changes === 1) return { claimed: true, record };
    const stored = await this.reply(record, record.orderUuid);
    return { claimed: false, record: stored ?? record };
  }

  async saveReply(record: ReplyRecord, expectedVersion: string): Promise<boolean> {
    const data = JSON.stringify(ReplyRecordSchema.parse(record));
    const updated = guarded('save the Slack reply', undefined, () =>
      this.#db
        .prepare<[string, string, ...KeyParams, string, string]>(
          `UPDATE slack_replies SET version = ?, data = ?
           WHERE subscriber_id = ? AND establishment_uuid = ? AND day = ? AND order_uuid = ? AND version = ?`,
        )
        .run(record.version, data, ...keyOf(record), record.orderUuid, expectedVersion),
    );
    return updated.changes === 1;
  }
}

function parseBoard(data: string): BoardRecord {
  return parseStored(BoardRecordSchema, data, 'read the Slack board', undefined, 'Slack board');
}

function parseReply(data: string): ReplyRecord {
  return parseStored(ReplyRecordSchema, data, 'read the Slack reply', undefined, 'Slack reply');
}
