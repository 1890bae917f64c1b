// Pins the catch-up phase (AWS): after a gap, the order events already stale when found are summed up in
// one catch-up per threshold, recorded once; nothing when no event is stale, when no subscriber gets
// catch-ups (locally, where the outbox composes them), or for prep summaries; the gap named only when it is
// what made them stale. And the record phase hands each event's source time to the store.
import { describe, expect, it, vi } from 'vitest';
import { isCatchUp } from '../../../shared/events/catchUpEvent.js';
import { recordCatchUps } from '../../../shared/poll/recordCatchUps.js';
import { recordChanges } from '../../../shared/poll/recordChanges.js';
import { initialPollState } from '../../../shared/store/pollState.js';
import { cycleFixture, MINUTE, T0, TODAY } from '../../support/cycleFixture.js';
import { ORGANIZATION, parsedOrder } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makePrepSummary } from '../../support/prepSummaryFixtures.js';

const DETECTED_AT = new Date(T0).toISOString();
const health = (lastSuccessAt: number | null) => ({
  ...initialPollState(ORGANIZATION.id).health,
  lastSuccessAt,
});

describe('recordCatchUps', () => {
  const old = makeOrderEvent({ detectedAt: DETECTED_AT });
  const older = makeOrderEvent({ type: 'order.canceled', detectedAt: DETECTED_AT });
  const fresh = makeOrderEvent({ detectedAt: DETECTED_AT });
  const undated = makeOrderEvent({ detectedAt: DETECTED_AT });
  const sourceTimes = { [old.id]: T0 - 20 * MINUTE, [older.id]: T0 - 70 * MINUTE, [fresh.id]: T0 - MINUTE };
  const events = [old, older, fresh, undated];

  it('records one catch-up per threshold, of the events stale for it when found, naming the gap', async () => {
    const { context, store } = await cycleFixture({ deps: { catchUpAfter: [15 * MINUTE, 3_600_000] } });
    const catchUps = await recordCatchUps(context, { events, sourceTimes, health: health(T0 - 90 * MINUTE) });

    expect(catchUps.map((catchUp) => [catchUp.data.catch_up_after, catchUp.data.event_ids])).toEqual([
      [900, [old.id, older.id]],
      [3600, [older.id]],
    ]);
    expect(catchUps[0]?.data.unpolled).toEqual({
      from: '2026-03-10T04:30:00+00:00',
      to: '2026-03-10T06:00:00+00:00',
    });
    expect(catchUps[0]?.data.found_late).toBe(2);
    expect(catchUps[0]?.time).toBe(DETECTED_AT);
    const logged = (await store.listEvents(ORGANIZATION.id)).map(({ event }) => event);
    expect(logged.filter(isCatchUp)).toEqual(catchUps);
  });

  it('records the same catch-up once, however often the cycle runs it', async () => {
    const { context } = await cycleFixture({ deps: { catchUpAfter: [15 * MINUTE] } });
    const input = { events, sourceTimes, health: health(T0 - 90 * MINUTE) };
    expect(await recordCatchUps(context, input)).toHaveLength(1);
    expect(await recordCatchUps(context, input)).toEqual([]);
  });

  it('leaves the gap out when it is shorter than the threshold: it is not what made them stale', async () => {
    const { context } = await cycleFixture({ deps: { catchUpAfter: [15 * MINUTE] } });
    const [catchUp] = await recordCatchUps(context, { events, sourceTimes, health: health(T0 - MINUTE) });
    expect(catchUp?.data.unpolled).toBeUndefined();
  });

  it('records nothing when nothing is stale, for prep summaries, or when no one gets catch-ups', async () => {
    const summary = makePrepSummary([], { time: DETECTED_AT });
    const withThreshold = await cycleFixture({ deps: { catchUpAfter: [15 * MINUTE] } });
    const none = {
      events: [fresh, undated, summary],
      sourceTimes: { ...sourceTimes, [summary.id]: T0 - 3_600_000 },
      health: health(T0 - 90 * MINUTE),
    };
    expect(await recordCatchUps(withThreshold.context, none)).toEqual([]);
    const local = await cycleFixture();
    expect(await recordCatchUps(local.context, { events, sourceTimes, health: health(null) })).toEqual([]);
    expect(await local.store.listEvents(ORGANIZATION.id)).toEqual([]);
  });
});

describe('recordChanges and the source times', () => {
  it('hands each event’s source time to the store with the commit', async () => {
    const { context, store } = await cycleFixture();
    const commit = vi.spyOn(store, 'commitChange');
    const createdAt = '2026-03-10T05:40:00.000000Z';
    const order = parsedOrder({ pickup_at: TODAY, created_at: createdAt, updated_at: createdAt });
    const changes = await recordChanges(context, {
      snapshots: new Map(),
      observed: new Map([[order.uuid, order]]),
      missing: [],
      coverage: { pendingCoveredAt: { [TODAY]: T0 - MINUTE }, watchingSince: T0 - 10 * MINUTE },
      prepSummaries: {},
      establishments: null,
    });
    const [event] = changes.events;
    expect(event?.type).toBe('order.created');
    expect(commit.mock.calls[0]?.[1].sourceTimes).toEqual({ [event?.id ?? '']: Date.parse(createdAt) });
    expect(changes.sourceTimes).toEqual({ [event?.id ?? '']: Date.parse(createdAt) });
  });
});
