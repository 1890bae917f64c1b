// One input check and one read-back parser per record kind that both adapters store alike (a snapshot,
// an event of the log, an organization's poll state), so SQLite and DynamoDB refuse the same values and
// name a bad record the same way: the organization, the record, the field.
import * as z from 'zod';
import { type Snapshot, SnapshotSchema } from '../detect/snapshot.js';
import { type DigestEvent, DigestEventSchema } from '../events/digestEvent.js';
import { type NotifierEvent, NotifierEventSchema } from '../events/notifierEvent.js';
import { parseInput, parseStored } from './parseStored.js';
import { type PollState, PollStateSchema, storedPollStateSchema } from './pollState.js';
import type { StoredEvent } from './stateStore.js';

/** A snapshot to commit names a real version: 1 for an order the store has never seen. */
const SnapshotToWriteSchema = SnapshotSchema.extend({ version: z.number().int().positive() });

/** What the log keeps of an event besides its key: the CloudEvent as JSON, and when it was committed. */
const StoredEventFieldsSchema = z.object({ payload: z.string(), recordedAt: z.number() });

function snapshotRecord(orderUuid: unknown): string {
  return typeof orderUuid === 'string' ? `snapshot of order ${orderUuid}` : 'snapshot';
}

function eventRecord(eventId: unknown): string {
  return typeof eventId === 'string' ? `event ${eventId}` : 'event';
}

/** The snapshot a commit is to write, checked; a StoreInputError naming the field when it does not fit. */
export function snapshotToWrite(organizationId: string, snapshot: Snapshot): Snapshot {
  return parseInput(
    SnapshotToWriteSchema,
    snapshot,
    'commitChange',
    organizationId,
    snapshotRecord(snapshot?.orderUuid),
  );
}

/** Events to log, checked one by one: the first that does not fit is a StoreInputError naming it. */
export function eventsToWrite(
  operation: string,
  organizationId: string,
  events: readonly NotifierEvent[],
): NotifierEvent[] {
  return events.map((event) =>
    parseInput(NotifierEventSchema, event, operation, organizationId, eventRecord(event?.id)),
  );
}

/** A digest to record, checked: a StoreInputError naming it when it does not fit. */
export function digestToWrite(organizationId: string, digest: DigestEvent): DigestEvent {
  return parseInput(DigestEventSchema, digest, 'recordDigest', organizationId, eventRecord(digest?.id));
}

/** The poll state to save, checked: a StoreInputError naming the organization and the field. */
export function pollStateToWrite(state: PollState): PollState {
  const organizationId = typeof state?.organizationId === 'string' ? state.organizationId : undefined;
  return parseInput(PollStateSchema, state, 'savePollState', organizationId, 'poll state');
}

/** A stored snapshot (the JSON text, or the item's attributes) read back. */
export function readSnapshot(
  value: unknown,
  operation: string,
  organizationId: string,
  orderUuid: unknown,
): Snapshot {
  return parseStored(SnapshotSchema, value, operation, organizationId, snapshotRecord(orderUuid));
}

/** A stored poll state (the JSON text, or the item's map) read back, upgraded if of an older version. */
export function readPollState(value: unknown, operation: string, organizationId: string): PollState {
  return parseStored(storedPollStateSchema, value, operation, organizationId, 'poll state');
}

/** An event of the log read back from its payload (the CloudEvent as JSON) and commit time. */
export function readStoredEvent(
  fields: { payload?: unknown; recordedAt?: unknown },
  operation: string,
  organizationId: string,
  eventId: unknown,
): StoredEvent {
  const record = eventRecord(eventId);
  const { payload, recordedAt } = parseStored(
    StoredEventFieldsSchema,
    fields,
    operation,
    organizationId,
    record,
  );
  const event = parseStored(NotifierEventSchema, payload, operation, organizationId, record);
  return { event, organizationId, recordedAt };
}
