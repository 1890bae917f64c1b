// Key and kind values of the state table's items (the layout is documented in stateTableDefinition.ts).

export const ItemKind = {
  snapshot: 'snapshot',
  event: 'event',
  pollState: 'pollState',
  budget: 'budget',
} as const;

export const SNAPSHOT_PREFIX = 'SNAP#';
export const EVENT_PREFIX = 'EVENT#';

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

/**
 * The organization's poll state item (`state`), which also holds its lease (`leaseOwner`, `leaseUntil`,
 * absent when nobody holds it), so the end of a cycle saves the state and gives the lease back in one
 * write. The lease has no item of its own (earlier versions' `LEASE` items are no longer read; their TTL
 * removes them).
 */
export function pollStateKey(organizationId: string): ItemKey {
  return { pk: organizationPk(organizationId), sk: 'STATE' };
}

export function budgetKey(key: string): ItemKey {
  return { pk: `BUDGET#${key}`, sk: 'LOG' };
}

/** DynamoDB TTL attributes are epoch seconds. */
export function ttlSeconds(epochMs: number): number {
  return Math.ceil(epochMs / 1000);
}
