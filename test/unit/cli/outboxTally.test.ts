import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localPortsOf } from '../../../cli/runtime/localRuntime.js';
import { OutboxTally } from '../../../cli/runtime/outboxTally.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { parsedOrder, snapshotOf } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

let store: SqliteStateStore;

beforeEach(() => {
  store = new SqliteStateStore({ path: ':memory:', routeEvent: () => ['automation', 'office'] });
});

afterEach(() => store.close());

async function record(organizationId: string, reference: string): Promise<string> {
  const order = parsedOrder({ reference });
  const event = makeOrderEvent({ order: { uuid: order.uuid, reference } });
  await store.commitChange(organizationId, { snapshot: snapshotOf(order), events: [event] });
  return event.id;
}

describe('OutboxTally', () => {
  it('counts queued and dead deliveries per organization, including events it was not told about', async () => {
    const first = await record('org-a', 'NS-1');
    const second = await record('org-b', 'SA-1');
    await store.outbox.markFailed('office', first, {
      attempts: 1,
      nextAttemptAt: 0,
      error: '550',
      dead: true,
    });
    await store.outbox.markDelivered('automation', second, 0);
    const tally = new OutboxTally(localPortsOf(store));
    tally.remember('org-a', [first]);
    expect(await tally.countsByOrganization()).toEqual(
      new Map([
        ['org-a', { queued: 1, dead: 1 }],
        ['org-b', { queued: 1, dead: 0 }],
      ]),
    );
    expect(await tally.countsFor('org-c')).toEqual({ queued: 0, dead: 0 });
    expect(await tally.organizationOf(second)).toBe('org-b');
  });
});
