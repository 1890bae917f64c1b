// The board's message map in a real SQLite state file, held to the conformance suite; and read again by a
// second store on the same file, as a restart or a second runner would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { describeBoardMessagesConformance } from '../../support/boardMessagesConformance.js';

function openStore(path: string): SqliteStateStore {
  return new SqliteStateStore({ path, clock: () => 1_000 });
}

describeBoardMessagesConformance('SqliteBoardMessages', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'board-messages-'));
  const store = openStore(join(dir, 'state.db'));
  return {
    messages: store.boardMessages,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

it('a second store on the same file sees the claims of the first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'board-messages-'));
  const path = join(dir, 'state.db');
  const first = openStore(path);
  const second = openStore(path);
  try {
    const record = {
      subscriberId: 'kitchen',
      establishmentUuid: 'e1',
      day: '2026-12-01',
      orderUuid: 'o1',
      ts: null,
      claimedAt: 1,
      version: '',
      shownVersion: null,
      card: { uuid: 'o1', reference: 'NS-1', counted: true, canceled: false, items: [], notes: [] },
      broadcastVersion: null,
    };
    expect((await first.boardMessages.claimReply(record)).claimed).toBe(true);
    expect((await second.boardMessages.claimReply(record)).claimed).toBe(false);
  } finally {
    await first.close();
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
