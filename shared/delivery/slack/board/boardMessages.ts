// The message map of the kitchen's board (a port, owned by the delivery code): for each Slack app
// subscriber, establishment and pickup day, the board's message ts and what it stands on, and for each
// order the ts of its reply in that board's thread with the version it shows. A restart, a second runner or
// another Lambda invocation reads it to go on editing the same messages. Posts are claimed first by a
// conditional insert (claimBoard, claimReply), and replies saved only over the version read (saveReply), so
// two events of one order handled at once never post it twice: a conditional put on DynamoDB, an
// `INSERT … ON CONFLICT DO NOTHING` and a `WHERE version = ?` in SQLite.
import * as z from 'zod';

export const BoardKeySchema = z.object({
  subscriberId: z.string(),
  establishmentUuid: z.string(),
  /** The pickup day, YYYY-MM-DD. */
  day: z.string(),
});
export type BoardKey = z.infer<typeof BoardKeySchema>;

export const CardItemSchema = z.object({
  sku: z.string().optional(),
  name: z.string(),
  quantity: z.number(),
});
export type CardItem = z.infer<typeof CardItemSchema>;

export const CardNoteSchema = z.object({ label: z.string(), note: z.string(), flagged: z.boolean() });
export type CardNote = z.infer<typeof CardNoteSchema>;

/** What the board needs of one order as its reply last showed it. */
export const OrderCardSchema = z.object({
  uuid: z.string(),
  reference: z.string(),
  /** Counted in what this board's kitchen cooks: not canceled, not moved away. */
  counted: z.boolean(),
  canceled: z.boolean(),
  /** Where it went, when it left this board: "Tue 1 Dec, Café Bar". */
  movedTo: z.string().optional(),
  items: z.array(CardItemSchema),
  notes: z.array(CardNoteSchema),
});
export type OrderCard = z.infer<typeof OrderCardSchema>;

export const ItemTotalSchema = z.object({ name: z.string(), quantity: z.number() });
export type ItemTotal = z.infer<typeof ItemTotalSchema>;

/** What the kitchen had at closing, that later deltas are counted against. */
export const AtClosingSchema = z.object({
  /** The establishment's closing time, with its offset. */
  closedAt: z.string(),
  orders: z.number(),
  items: z.array(ItemTotalSchema),
});
export type AtClosing = z.infer<typeof AtClosingSchema>;

export const BoardRecordSchema = BoardKeySchema.extend({
  /** The board's message; null while its post is claimed and not made yet. */
  ts: z.string().nullable(),
  /** When the post was claimed (epoch ms): a claim never completed is taken over after CLAIM_TTL_MS. */
  claimedAt: z.number(),
  organizationName: z.string(),
  establishmentName: z.string(),
  atClosing: AtClosingSchema.nullable(),
  /** Set when what the board shows changed and is not edited in yet (epoch ms); null once it is. */
  changedAt: z.number().nullable(),
  /** The last post or edit of the board (epoch ms), for coalescing. */
  renderedAt: z.number().nullable(),
});
export type BoardRecord = z.infer<typeof BoardRecordSchema>;

export const ReplyRecordSchema = BoardKeySchema.extend({
  orderUuid: z.string(),
  ts: z.string().nullable(),
  claimedAt: z.number(),
  /** The newest version handled (boardVersion.ts); an event older than it changes nothing. */
  version: z.string(),
  /** The version the message in Slack shows; behind `version` only while an edit is owed. */
  shownVersion: z.string().nullable(),
  card: OrderCardSchema,
  /** The version whose after-closing broadcast was posted, so a retry does not post it again. */
  broadcastVersion: z.string().nullable(),
});
export type ReplyRecord = z.infer<typeof ReplyRecordSchema>;

/** A claimed post not completed in this long (the runner died while posting) is taken over. */
export const CLAIM_TTL_MS = 2 * 60_000;

export interface BoardMessages {
  board(key: BoardKey): Promise<BoardRecord | undefined>;
  /** Inserts the record unless the board has one: `claimed` when this call inserted it; the stored record either way. */
  claimBoard(record: BoardRecord): Promise<{ claimed: boolean; record: BoardRecord }>;
  /** Writes the board's record as given (its ts, closing, render times). */
  saveBoard(record: BoardRecord): Promise<void>;
  /**
   * Marks the board owed an edit since `at`, touching nothing else of its stored record: a handler that
   * marks it while another renders it is not overwritten by that render's save (finishRender).
   */
  markChanged(key: BoardKey, at: number): Promise<void>;
  /**
   * Writes the record of a render that began at `startedAt` (its ts and renderedAt), owed no edit any more
   * unless the board was marked changed after `startedAt`: then it stays owed, so the last state lands.
   */
  finishRender(record: BoardRecord, startedAt: number): Promise<void>;
  /** The subscriber's boards whose changes are not edited in yet (changedAt set). */
  boardsToRender(subscriberId: string): Promise<BoardRecord[]>;
  /** The replies of one board, every order it has shown. */
  replies(key: BoardKey): Promise<ReplyRecord[]>;
  reply(key: BoardKey, orderUuid: string): Promise<ReplyRecord | undefined>;
  /** Inserts the record unless the order has a reply in that board: `claimed` when this call inserted it. */
  claimReply(record: ReplyRecord): Promise<{ claimed: boolean; record: ReplyRecord }>;
  /** Writes the record only while the stored one's version is still `expectedVersion`: false when another got there first. */
  saveReply(record: ReplyRecord, expectedVersion: string): Promise<boolean>;
}
