// The message map in memory: for a sender built without a state file (check-config, send-test) and as the
// fake the conformance suite holds to the same behaviour as the SQLite and DynamoDB adapters.
import type { BoardKey, BoardMessages, BoardRecord, ReplyRecord } from './boardMessages.js';

function boardId({ subscriberId, establishmentUuid, day }: BoardKey): string {
  return JSON.stringify([subscriberId, establishmentUuid, day]);
}

export class InMemoryBoardMessages implements BoardMessages {
  readonly #boards = new Map<string, BoardRecord>();
  readonly #replies = new Map<string, Map<string, ReplyRecord>>();

  async board(key: BoardKey): Promise<BoardRecord | undefined> {
    return copy(this.#boards.get(boardId(key)));
  }

  async claimBoard(record: BoardRecord): Promise<{ claimed: boolean; record: BoardRecord }> {
    const stored = this.#boards.get(boardId(record));
    if (stored) return { claimed: false, record: structuredClone(stored) };
    this.#boards.set(boardId(record), structuredClone(record));
    return { claimed: true, record: structuredClone(record) };
  }

  async saveBoard(record: BoardRecord): Promise<void> {
    this.#boards.set(boardId(record), structuredClone(record));
  }

  async markChanged(key: BoardKey, at: number): Promise<void> {
    const stored = this.#boards.get(boardId(key));
    if (stored) stored.changedAt = at;
  }

  async finishRender(record: BoardRecord, startedAt: number): Promise<void> {
    const changedAt = this.#boards.get(boardId(record))?.changedAt ?? null;
    const stillOwed = changedAt !== null && changedAt > startedAt;
    this.#boards.set(
      boardId(record),
      structuredClone({ ...record, changedAt: stillOwed ? changedAt : null }),
    );
  }

  async boardsToRender(subscriberId: string): Promise<BoardRecord[]> {
    return [...this.#boards.values()]
      .filter((board) => board.subscriberId === subscriberId && board.changedAt !== null)
      .map((board) => structuredClone(board));
  }

  async replies(key: BoardKey): Promise<ReplyRecord[]> {
    return [...(this.#replies.get(boardId(key))?.values() ?? [])].map((reply) => structuredClone(reply));
  }

  async reply(key: BoardKey, orderUuid: string): Promise<ReplyRecord | undefined> {
    return copy(this.#replies.get(boardId(key))?.get(orderUuid));
  }

  async claimReply(record: ReplyRecord): Promise<{ claimed: boolean; record: ReplyRecord }> {
    const board = this.#repliesOf(record);
    const stored = board.get(record.orderUuid);
    if (stored) return { claimed: false, record: structuredClone(stored) };
    board.set(record.orderUuid, structuredClone(record));
    return { claimed: true, record: structuredClone(record) };
  }

  async saveReply(record: ReplyRecord, expectedVersion: string): Promise<boolean> {
    const board = this.#repliesOf(record);
    if (board.get(record.orderUuid)?.version !== expectedVersion) return false;
    board.set(record.orderUuid, structuredClone(record));
    return true;
  }

  #repliesOf(key: BoardKey): Map<string, ReplyRecord> {
    const id = boardId(key);
    let board = this.#replies.get(id);
    if (!board) {
      board = new Map();
      this.#replies.set(id, board);
    }
    return board;
  }
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}
