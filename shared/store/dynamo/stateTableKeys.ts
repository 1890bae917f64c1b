// Key and kind values of the state table's items (the layout is documented in stateTableDefinition.ts).

export const ItemKind = {
  snapshot: 'snapshot',
  event: 'event',
  pollState: 'pollState',
  /** An organization's lease and fencing token: never an `event`, so the publisher's stream filter lets it by. */
  lease: 'lease',
  budget: 'budget',
  /** A digest's claim (AWS): never an `event`, so the publisher's stream filter lets it by. */
  digest: 'digest',
  /** The kitchen's board (Slack app subscribers): a board's message, and an order's reply in its thread. */
  slackBoard: 'slackBoard',
  slackReply: 'slackReply',
  /** The organizations the AWS watchdog last announced as overdue (shared/poll/overdueNotice.ts). */
  overdueNotice: 'overdueNotice',
} as const;

export const SNAPSHOT_PREFIX = 'SNAP#';
export const EVENT_PREFIX = 'EVENT#';
export const DIGEST_PREFIX = 'DIGEST#';

export interface ItemKey {
  pk: string;
  sk: string;
}

export function organizationPk(organizationId: string): string {
  return `ORG#${organizationId}`;
}

export function snapshotKey(organizationId: string, orderUuid: string): ItemKey {
  return { pk: organizationPk(organizationId), sk: `${SNAPSHOT_PREFIX}${orderUuid}` };
}

export function eventKey(organizationId: string, eventId: string): ItemKey {
  return { pk: organizationPk(organizationId), sk: `${EVENT_PREFIX}${eventId}` };
}

/** A digest's claim, by its deterministic id: outside the EVENT# range, so never listed as an event. */
export function digestKey(organizationId: string, digestId: string): ItemKey {
  return { pk: organizationPk(organizationId), sk: `${DIGEST_PREFIX}${digestId}` };
}

/**
 * The organization's poll state item (`state`, and `fenceToken`: the fencing token of the lease term that
 * saved it last). Versions before the lease item kept the lease on it too (`leaseOwner`, `leaseUntil`):
 * no longer read, and removed by the next save.
 */
export function pollStateKey(organizationId: string): ItemKey {
  return { pk: organizationPk(organizationId), sk: 'STATE' };
}

/**
 * The organization's lease item (`leaseOwner`, `leaseUntil`, absent when nobody holds it, and
 * `fenceToken`, which grows with every claim): small, so claiming it and checking it in a commit's
 * transaction cost one write unit, not the poll state's size. Never deleted and no TTL, so its token only
 * grows. Not `LEASE`: that key was an older version's lease item, in another shape, which its TTL removes.
 */
export function leaseKey(organizationId: string): ItemKey {
  return { pk: organizationPk(organizationId), sk: 'FENCE' };
}

/** The Slack app subscriber's boards: one partition per subscriber, so its boards owed an edit are one query. */
/** The watchdog's one item: which organizations its last notice announced as overdue. */
export function overdueNoticeKey(): ItemKey {
  return { pk: 'WATCHDOG', sk: 'OVERDUE' };
}

export function slackBoardsPk(subscriberId: string): string {
  return `SLACKBOARDS#${subscriberId}`;
}

export const SLACK_BOARD_PREFIX = 'BOARD#';
export const SLACK_REPLY_PREFIX = 'REPLY#';

/** One board of a Slack app subscriber: its establishment and pickup day. */
export function slackBoardKey(subscriberId: string, establishmentUuid: string, day: string): ItemKey {
  return { pk: slackBoardsPk(subscriberId), sk: `${SLACK_BOARD_PREFIX}${establishmentUuid}#${day}` };
}

/** The replies of one board: one partition per board, so its replies are one query. */
export function slackRepliesPk(subscriberId: string, establishmentUuid: string, day: string): string {
  return `SLACKREPLIES#${subscriberId}#${establishmentUuid}#${day}`;
}

export function slackReplyKey(
  subscriberId: string,
  establishmentUuid: string,
  day: string,
  orderUuid: string,
): ItemKey {
  return {
    pk: slackRepliesPk(subscriberId, establishmentUuid, day),
    sk: `${SLACK_REPLY_PREFIX}${orderUuid}`,
  };
}

export function budgetKey(key: string): ItemKey {
  return { pk: `BUDGET#${key}`, sk: 'LOG' };
}

/**
 * The TTL attribute (`expiresAt`) of an item that expires at `epochMs`: the one time in the table in epoch
 * SECONDS, because DynamoDB's TTL reads only that; every other time attribute is epoch ms. Rounded up, so
 * an item is never removed before its time. Every TTL the adapters write is computed here.
 */
export function ttlSeconds(epochMs: number): number {
  return Math.ceil(epochMs / 1000);
}
