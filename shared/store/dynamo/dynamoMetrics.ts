// Running totals of DynamoDB requests and consumed capacity, per store operation, so a benchmark or a
// dashboard can tell what one poll cycle costs (e.g. zero writes when nothing changed).
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';

export type StoreOperation =
  | 'loadSnapshots'
  | 'commitChange'
  | 'recordEvents'
  | 'listEvents'
  | 'loadPollState'
  | 'savePollState'
  | 'lease'
  | 'budget'
  | 'watch';

export interface CapacityTally {
  readRequests: number;
  writeRequests: number;
  readCapacityUnits: number;
  writeCapacityUnits: number;
}

export interface DynamoMetricsSnapshot {
  total: CapacityTally;
  byOperation: Record<StoreOperation, CapacityTally>;
}

const OPERATIONS: StoreOperation[] = [
  'loadSnapshots',
  'commitChange',
  'recordEvents',
  'listEvents',
  'loadPollState',
  'savePollState',
  'lease',
  'budget',
  'watch',
];

/** The tally each store method's requests are counted under; methods not listed are not counted. */
const TALLIES: Readonly<Record<string, StoreOperation>> = {
  loadSnapshots: 'loadSnapshots',
  commitChange: 'commitChange',
  recordEvents: 'recordEvents',
  listEvents: 'listEvents',
  findEvents: 'listEvents',
  getEvent: 'listEvents',
  loadPollState: 'loadPollState',
  savePollState: 'savePollState',
  acquireLease: 'lease',
  leaseHolder: 'lease',
  releaseLease: 'lease',
  budget: 'budget',
  loadPollWatches: 'watch',
};

export function tallyOf(method: string): StoreOperation | undefined {
  return Object.hasOwn(TALLIES, method) ? TALLIES[method] : undefined;
}

function emptyTally(): CapacityTally {
  return { readRequests: 0, writeRequests: 0, readCapacityUnits: 0, writeCapacityUnits: 0 };
}

export class DynamoMetrics {
  readonly #byOperation = new Map<StoreOperation, CapacityTally>(OPERATIONS.map((op) => [op, emptyTally()]));

  /**
   * Counts one request. `consumed` is the response's ConsumedCapacity (absent when the request failed,
   * in which case only the request is counted).
   */
  record(
    operation: StoreOperation,
    access: 'read' | 'write',
    consumed: ConsumedCapacity | ConsumedCapacity[] | undefined,
  ): void {
    const tally = this.#byOperation.get(operation) ?? emptyTally();
    this.#byOperation.set(operation, tally);
    if (access === 'read') tally.readRequests += 1;
    else tally.writeRequests += 1;
    for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
      // With ReturnConsumedCapacity TOTAL only CapacityUnits is certain; the request kind says which it is.
      const units = entry.CapacityUnits ?? 0;
      if (access === 'read') tally.readCapacityUnits += entry.ReadCapacityUnits ?? units;
      else tally.writeCapacityUnits += entry.WriteCapacityUnits ?? units;
    }
  }

  /** Sends one request through `send` and counts it, whether it succeeds or fails. */
  async measure<T extends { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] | undefined }>(
    operation: StoreOperation,
    access: 'read' | 'write',
    send: () => Promise<T>,
  ): Promise<T> {
    let result: T;
    try {
      result = await send();
    } catch (error) {
      this.record(operation, access, undefined);
      throw error;
    }
    this.record(operation, access, result.ConsumedCapacity);
    return result;
  }

  /** A copy of the totals so far; subtract two snapshots to measure one cycle. */
  snapshot(): DynamoMetricsSnapshot {
    const total = emptyTally();
    const byOperation = {} as Record<StoreOperation, CapacityTally>;
    for (const operation of OPERATIONS) {
      const tally = { ...(this.#byOperation.get(operation) ?? emptyTally()) };
      byOperation[operation] = tally;
      total.readRequests += tally.readRequests;
      total.writeRequests += tally.writeRequests;
      total.readCapacityUnits += tally.readCapacityUnits;
      total.writeCapacityUnits += tally.writeCapacityUnits;
    }
    return { total, byOperation };
  }
}
