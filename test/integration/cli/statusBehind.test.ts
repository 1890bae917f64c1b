// `status` (and /healthz, which reads the same report) over a real state file: a Slack subscriber whose
// oldest queued change is older than its catchUpAfter is behind, not healthy; a webhook with the same
// backlog is not judged by it.
import { afterEach, describe, expect, it } from 'vitest';
import { localPortsOf } from '../../../cli/runtime/localRuntime.js';
import { collectStatus } from '../../../cli/status/collectStatus.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { assessHealth } from '../../../shared/operations/healthVerdict.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { exampleConfig, NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';

const MINUTE = 60_000;
let store: SqliteStateStore | undefined;

afterEach(() => store?.close());

describe('status of a person whose deliveries wait', () => {
  it('calls a Slack subscriber behind once its oldest queued change is older than its catchUpAfter', async () => {
    const config = parseConfig(exampleConfig());
    const [webhook, slack] = config.subscribers;
    if (!webhook || !slack) throw new Error('the example has a webhook and a Slack subscriber');
    let now = T0;
    store = new SqliteStateStore({
      path: ':memory:',
      clock: () => now,
      routeEvent: () => [webhook.id, slack.id],
    });
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(NORTH_SCHOOL_ID, snapshot.orderUuid, 'order.created');
    await store.commitChange(NORTH_SCHOOL_ID, {
      snapshot,
      events: [event],
      sourceTimes: { [event.id]: T0 - MINUTE },
    });

    const soon = await collectStatus(config, ':memory:', localPortsOf(store), now);
    expect(soon.subscribers.find((subscriber) => subscriber.id === slack.id)).toMatchObject({
      queued: 1,
      catchUpAfterSeconds: 900,
      behindSince: new Date(T0 - MINUTE).toISOString(),
    });
    const behind = (report: typeof soon) =>
      assessHealth(report, now).problems.filter((problem) => problem.includes('is behind'));
    expect(behind(soon)).toEqual([]);

    now = T0 + 20 * MINUTE;
    const later = await collectStatus(config, ':memory:', localPortsOf(store), now);
    expect(behind(later)).toEqual([
      `subscriber ${slack.id} is behind: its oldest queued change is 21 min old, over its catchUpAfter of 15 min, 1 delivery queued; see meal-notifier deliveries`,
    ]);
  });
});
