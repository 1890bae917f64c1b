// Pins one cycle's sample of pending's changes: today's and other days' (edits among each), and the time the
// other days' changes built up over: since their dates were last read, by a whole walk or a check.
import { describe, expect, it } from 'vitest';
import type { Coverage } from '../../../shared/detect/coverage.js';
import { changeSample } from '../../../shared/poll/changeRates.js';
import { plannedWalk, windowListing } from '../../support/cycleFixture.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

const T0 = 1_773_000_000_000;
const TODAY = '2026-03-05';
const THURSDAY = '2026-03-07';

const events = [
  makeOrderEvent({ order: { pickup_at: TODAY } }),
  makeOrderEvent({ type: 'order.updated', order: { pickup_at: TODAY } }),
  makeOrderEvent({ order: { pickup_at: THURSDAY } }),
  makeOrderEvent({ type: 'order.updated', order: { pickup_at: THURSDAY } }),
  makeOrderEvent({ type: 'order.completed', order: { pickup_at: THURSDAY } }),
];

function sample(coverage: Coverage) {
  return changeSample(events, {
    today: TODAY,
    startedAt: T0,
    previousCycleAt: T0 - 6_000,
    walks: [
      plannedWalk(windowListing({ kind: 'part', startDate: TODAY, endDate: TODAY })),
      plannedWalk(windowListing({ kind: 'part', startDate: THURSDAY, endDate: THURSDAY })),
    ],
    coverage,
    otherDaysShare: 0.5,
  });
}

describe('changeSample', () => {
  it("counts today's changes and other days', with the edits among each", () => {
    const found = sample({ pendingCoveredAt: { [THURSDAY]: T0 - 30_000 }, watchingSince: T0 - 60_000 });
    expect(found).toEqual({
      today: 2,
      todayEdits: 1,
      todayMinutes: 0.1,
      // Thursday went 30 s unread, and stands for half the other days' orders: a quarter of a minute.
      elsewhere: { changes: 3, edits: 1, minutes: 0.25 },
    });
  });

  it('measures the other days’ changes from when a check last read their date, not from its last whole walk', () => {
    const checked = sample({
      pendingCoveredAt: { [THURSDAY]: T0 - 90_000 },
      pendingReadAt: { [THURSDAY]: T0 - 30_000 },
      watchingSince: T0 - 120_000,
    });
    expect(checked?.elsewhere?.minutes).toBe(0.25);
  });
});
