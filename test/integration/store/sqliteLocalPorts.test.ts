// The local runner's ports beside the state store, each as one SQLite state file serves it (localPortsOf):
// one event by id, pruning, the digests, and the outbox's ledger, through the suites every adapter of each
// port runs (the in-memory fakes run them in test/unit/store/inMemoryLocalPorts.test.ts).
import { localPortsOf } from '../../../cli/runtime/localRuntime.js';
import {
  SqliteStateStore,
  type SqliteStateStoreOptions,
} from '../../../shared/store/sqlite/sqliteStateStore.js';
import { describeDeliveryLedgerConformance } from '../../support/deliveryLedgerConformance.js';
import { describeDigestStoreConformance } from '../../support/digestStoreConformance.js';
import { describeEventLookupConformance } from '../../support/eventLookupConformance.js';
import { describeStateRetentionConformance } from '../../support/stateRetentionConformance.js';
import { makeSnapshot } from '../../support/stateStoreConformance.js';

/** A state file in memory, closed by the suite. */
function openStore(options: Omit<SqliteStateStoreOptions, 'path'>) {
  const store = new SqliteStateStore({ path: ':memory:', ...options });
  return { ports: localPortsOf(store), cleanup: async () => store.close() };
}

describeEventLookupConformance('SqliteStateStore', async ({ clock }) => {
  const { ports, cleanup } = openStore({ clock });
  return { eventLog: ports.eventLog, store: ports.store, cleanup };
});

describeStateRetentionConformance('SqliteStateStore', async ({ clock, eventRetentionMs }) => {
  const { ports, cleanup } = openStore({ clock, eventRetentionMs });
  return { retention: ports.retention, store: ports.store, cleanup };
});

describeDigestStoreConformance('SqliteStateStore', async ({ clock }) => {
  const { ports, cleanup } = openStore({ clock });
  return { digests: ports.digests, store: ports.store, cleanup };
});

describeDeliveryLedgerConformance('SqliteOutbox', async ({ clock }) => {
  // The store's event router sends each event to the subscribers the suite names for it.
  const routes = new Map<string, readonly string[]>();
  const { ports, cleanup } = openStore({ clock, routeEvent: (event) => [...(routes.get(event.id) ?? [])] });
  return {
    outbox: ports.outbox,
    queue: async (organizationId, event, subscriberIds, sourceTime) => {
      routes.set(event.id, subscriberIds);
      await ports.store.commitChange(organizationId, {
        snapshot: makeSnapshot(event.subject),
        events: [event as Parameters<typeof ports.store.commitChange>[1]['events'][number]],
        ...(sourceTime === undefined ? {} : { sourceTimes: { [event.id]: sourceTime } }),
      });
    },
    cleanup,
  };
});
