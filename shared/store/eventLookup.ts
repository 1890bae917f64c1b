// One logged event found by its id alone, whichever organization it belongs to: what the local operator
// commands (replay, deliveries) and the runner's outbox tally ask when all they hold is an outbox row's
// event id. The SQLite state store serves it. The state table on AWS is keyed by organization, so a replay
// there asks DynamoStateStore.getEvent(organizationId, eventId) instead.
import type { StoredEvent } from './stateStore.js';

export interface EventLookup {
  /** The logged event of that id, or undefined: never logged, pruned since, or a digest (not an event). */
  getEvent(eventId: string): Promise<StoredEvent | undefined>;
}
