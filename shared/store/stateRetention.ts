// Forgetting what has expired, for a store with no TTL sweeper of its own: snapshots past their expiresAt,
// events past the retention, with their deliveries. The local runner calls it now and then (SQLite); on AWS
// DynamoDB's TTL does the same work, so nothing there serves this port.

/** How many records a prune forgot. */
export interface PruneResult {
  snapshots: number;
  events: number;
}

export interface StateRetention {
  /** Forgets what expired at or before `nowMs`. Loads never hide an expired record on their own. */
  prune(nowMs: number): Promise<PruneResult>;
}
