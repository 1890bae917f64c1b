// The behaviour every adapter of the board's message map must show (boardMessages.ts), as one suite the
// in-memory map and the SQLite one run: posts claimed once, replies saved only over the version read,
// boards owed an edit listed, records read back as written.
import { afterEach, describe, expect, it } from 'vitest';
import type {
  BoardMessages,
  BoardRecord,
  ReplyRecord,
} from '../../shared/delivery/slack/board/boardMessages.js';

export function describeBoardMessagesConformance(
  name: string,
  open: () => Promise<{ messages: BoardMessages; cleanup: () => Promise<void> }>,
): void {
  describe(`${name} (board message map conformance)`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    const fresh = async () => {
      const opened = await open();
      cleanups.push(opened.cleanup);
      return opened.messages;
    };
    const key = { subscriberId: 'kitchen', establishmentUuid: 'e1', day: '2026-12-01' };
    const board = (overrides: Partial<BoardRecord> = {}): BoardRecord => ({
      ...key,
      ts: null,
      claimedAt: 1_000,
      organizationName: 'School',
      establishmentName: 'Main Canteen',
      atClosing: null,
      changedAt: null,
      renderedAt: null,
      ...overrides,
    });
    const reply = (overrides: Partial<ReplyRecord> = {}): ReplyRecord => ({
      ...key,
      orderUuid: 'o1',
      ts: null,
      claimedAt: 1_000,
      version: '',
      shownVersion: null,
      card: { uuid: 'o1', reference: 'NS-1', counted: true, canceled: false, items: [], notes: [] },
      broadcastVersion: null,
      ...overrides,
    });

    it('claims a board once: the second claim gets the first record back', async () => {
      const messages = await fresh();
      expect((await messages.claimBoard(board())).claimed).toBe(true);
      const second = await messages.claimBoard(board({ claimedAt: 2_000, establishmentName: 'Other' }));
      expect(second.claimed).toBe(false);
      expect(second.record.establishmentName).toBe('Main Canteen');
      expect(await messages.board(key)).toEqual(board());
    });

    it('lists the boards owed an edit, and no longer once saved as rendered', async () => {
      const messages = await fresh();
      await messages.claimBoard(board());
      await messages.saveBoard(board({ ts: '1.1', changedAt: 5_000 }));
      await messages.saveBoard(board({ establishmentUuid: 'e2', ts: '1.2' }));
      expect((await messages.boardsToRender('kitchen')).map((record) => record.establishmentUuid)).toEqual([
        'e1',
      ]);
      expect(await messages.boardsToRender('other')).toEqual([]);
      await messages.saveBoard(board({ ts: '1.1', changedAt: null, renderedAt: 6_000 }));
      expect(await messages.boardsToRender('kitchen')).toEqual([]);
    });

    it('keeps a board owed when it was marked changed after a render began, so the last state lands', async () => {
      const messages = await fresh();
      await messages.claimBoard(board({ ts: '1.1' }));
      await messages.markChanged(key, 5_000);
      // A render begins at 6,000; another handler marks a change at 7,000 while it runs.
      await messages.markChanged(key, 7_000);
      await messages.finishRender(board({ ts: '1.1', renderedAt: 8_000 }), 6_000);
      expect(await messages.board(key)).toMatchObject({ renderedAt: 8_000, changedAt: 7_000 });
      expect((await messages.boardsToRender('kitchen')).map((record) => record.changedAt)).toEqual([7_000]);
      // The next render, begun after that mark, clears it.
      await messages.finishRender(board({ ts: '1.1', renderedAt: 9_000 }), 8_500);
      expect(await messages.board(key)).toMatchObject({ renderedAt: 9_000, changedAt: null });
      expect(await messages.boardsToRender('kitchen')).toEqual([]);
    });

    it('marks a board changed without touching the rest of its record', async () => {
      const messages = await fresh();
      await messages.claimBoard(board({ ts: '1.1', renderedAt: 4_000 }));
      await messages.markChanged(key, 5_000);
      expect(await messages.board(key)).toEqual(board({ ts: '1.1', renderedAt: 4_000, changedAt: 5_000 }));
    });

    it('claims a reply once, so two handlers of one order never both post it', async () => {
      const messages = await fresh();
      const [a, b] = await Promise.all([
        messages.claimReply(reply()),
        messages.claimReply(reply({ claimedAt: 9 })),
      ]);
      expect([a.claimed, b.claimed].sort()).toEqual([false, true]);
      expect(await messages.replies(key)).toHaveLength(1);
    });

    it('saves a reply only over the version it read', async () => {
      const messages = await fresh();
      await messages.claimReply(reply());
      expect(await messages.saveReply(reply({ ts: '1.5', version: 'v2', shownVersion: 'v2' }), '')).toBe(
        true,
      );
      // A handler that read the claim before that save lands nothing over the newer version.
      expect(await messages.saveReply(reply({ ts: '1.6', version: 'v1' }), '')).toBe(false);
      expect(await messages.reply(key, 'o1')).toMatchObject({ ts: '1.5', version: 'v2' });
      expect(await messages.reply(key, 'o2')).toBeUndefined();
    });

    it('keeps each board and subscriber apart', async () => {
      const messages = await fresh();
      await messages.claimReply(reply());
      await messages.claimReply(reply({ day: '2026-12-02' }));
      await messages.claimReply(reply({ subscriberId: 'office' }));
      expect(await messages.replies(key)).toHaveLength(1);
      expect(await messages.board(key)).toBeUndefined();
    });
  });
}
