// The digest use case's port (queueDueDigests.ts): the event log as the digests read it, and where a built
// digest is recorded and queued for its one subscriber. Adapters: the SQLite state store (locally, where the
// outbox queues it) and DynamoDigestStore (AWS, where a claim item stands for it until it is published).
import type { DigestEvent } from '../../events/digestEvent.js';
import type { StoredEvent } from '../../store/stateStore.js';

export interface DigestStore {
  /** The organization's events recorded at or after `sinceMs`; never a digest. */
  listEvents(organizationId: string, sinceMs: number): Promise<StoredEvent[]>;
  /** Records the digest and queues it for its subscriber; false when that id is already recorded. */
  recordDigest(organizationId: string, digest: DigestEvent): Promise<boolean>;
}
