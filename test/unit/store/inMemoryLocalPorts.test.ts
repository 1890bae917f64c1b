// The in-memory fakes of the local runner's ports pass the suites the SQLite adapters pass
// (test/integration/store/sqliteLocalPorts.test.ts), so that a test built on them tells the truth.
import { describeDeliveryLedgerConformance } from '../../support/deliveryLedgerConformance.js';
import { describeDigestStoreConformance } from '../../support/digestStoreConformance.js';
import { describeEventLookupConformance } from '../../support/eventLookupConformance.js';
import { InMemoryDeliveryLedger } from '../../support/inMemoryDeliveryLedger.js';
import { InMemoryStateStore } from '../../support/inMemoryStateStore.js';
import { describeStateRetentionConformance } from '../../support/stateRetentionConformance.js';

const nothingToClose = async () => {};

describeEventLookupConformance('InMemoryStateStore', async ({ clock }) => {
  const store = new InMemoryStateStore({ clock });
  return { eventLog: store, store, cleanup: nothingToClose };
});

describeStateRetentionConformance('InMemoryStateStore', async ({ clock, eventRetentionMs }) => {
  const store = new InMemoryStateStore({ clock, eventRetentionMs });
  return { retention: store, store, cleanup: nothingToClose };
});

describeDigestStoreConformance('InMemoryStateStore', async ({ clock }) => {
  const store = new InMemoryStateStore({ clock });
  return { digests: store, store, cleanup: nothingToClose };
});

describeDeliveryLedgerConformance('InMemoryDeliveryLedger', async ({ clock }) => {
  const outbox = new InMemoryDeliveryLedger({ clock });
  return {
    outbox,
    queue: (_organizationId, event, subscriberIds, sourceTime) =>
      outbox.queue(event, subscriberIds, sourceTime),
    cleanup: nothingToClose,
  };
});
