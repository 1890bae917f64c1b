// Orders first (issue 23): an establishments listing the notifier cannot read does not fail order
// detection. The whole cycle on the in-memory fakes, as both runtimes run it: a record without
// `working_days` is a listing problem, not a failure; every order event is recorded; the cache names the
// record it could not read, so the next cycle's cadence is fixed and that establishment's closing gets no
// prep summary; the Lambda poller's metrics say PollSucceeded 1 and ListingProblems 1. A 401 still fails.
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publishPollMetrics } from '../../../functions/poller/pollSummary.js';
import { pollOrganization } from '../../../shared/poll/pollOrganization.js';
import { initialPollState } from '../../../shared/store/pollState.js';
import { captureOutput } from '../../support/captureOutput.js';
import { cycleFixture, mainCanteen, T0, TODAY } from '../../support/cycleFixture.js';
import { apiFailures } from '../../support/inMemoryOrdersSource.js';
import { type EstablishmentInput, makeEstablishment, makeOrder } from '../../support/orderFactory.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Both close at 10:30 in Lisbon (UTC in March); the cycle begins just after, on Tuesday. */
const STARTED = Date.UTC(2026, 2, 10, 10, 31);
const canteen = mainCanteen();
const hall = makeEstablishment({ name: 'Sports hall' });
const { working_days: _dropped, ...hallWithoutDays } = hall;

async function brokenWorld() {
  const fixture = await cycleFixture({
    startedAt: STARTED,
    organization: { emitExisting: true },
    establishments: [canteen, hallWithoutDays as unknown as EstablishmentInput],
    orders: [
      makeOrder({ pickup_at: TODAY }),
      makeOrder({ pickup_at: TODAY, establishment: { uuid: hall.uuid, name: hall.name } }),
    ],
  });
  // Watched since 06:00, before both closings: a closing passed with this cycle's walk is summed up.
  const state = initialPollState(fixture.organization.id);
  await fixture.store.savePollState({ ...state, coverage: { ...state.coverage, watchingSince: T0 } });
  const cycle = () => pollOrganization(fixture.organization, fixture.context.deps);
  return { ...fixture, cycle };
}

describe('a cycle whose establishments listing has a record without working_days', () => {
  it('succeeds: its orders’ events recorded, the record a listing problem naming the field', async () => {
    const { cycle } = await brokenWorld();
    const report = await cycle();
    expect(report).toMatchObject({ outcome: 'polled', ok: true, failures: [], ordersSeen: 2 });
    expect(
      report.events.filter((event) => event.type === 'order.created').map((event) => event.subject),
    ).toHaveLength(2);
    expect(report.problems).toEqual([
      {
        kind: 'skipped_record',
        listing: 'establishments',
        page: 1,
        uuid: hall.uuid,
        detail: expect.stringContaining('working_days'),
      },
    ]);
  });

  it('names the record in the cache, sends no prep summary for its closing, and fixes the next cadence', async () => {
    const { cycle, store, organization } = await brokenWorld();
    const first = await cycle();
    const state = await store.loadPollState(organization.id);
    expect(state?.establishments?.records.map((record) => record.uuid)).toEqual([canteen.uuid]);
    expect(state?.establishments?.unreadable).toEqual([
      { uuid: hall.uuid, page: 1, detail: expect.stringMatching(/^record #1 on the page: working_days: /) },
    ]);
    // Not an unreadable order: status names it as an establishment.
    expect(state?.unreadable).toEqual({});
    const summaries = first.events.filter((event) => event.type === 'establishment.prep_summary');
    // The canteen, read well, has its summary; the hall, whose closing time is unknown, none.
    expect(summaries.map((event) => event.subject)).toEqual([canteen.uuid]);
    const second = await cycle();
    expect(second.cadence).toBe('fixed');
    expect(second.ok).toBe(true);
  });

  it('publishes ListingProblems 1 on AWS, and nothing per organization', async () => {
    const { cycle } = await brokenWorld();
    const report = await cycle();
    const output = captureOutput();
    publishPollMetrics(new Metrics({ namespace: 'MealOrderNotifier', serviceName: 'poller' }), report);
    vi.restoreAllMocks();
    const blobs = output.emf();
    expect(blobs).toEqual([expect.objectContaining({ ListingProblems: 1 })]);
  });

  it('still fails a cycle whose establishments read meets a 401, as every listing would', async () => {
    const { cycle, source } = await brokenWorld();
    source.failListing({ listing: 'establishments', error: apiFailures.unauthorized() });
    const report = await cycle();
    expect(report.ok).toBe(false);
    expect(report.failures).toEqual([expect.stringContaining('establishments not refreshed')]);
  });
});
