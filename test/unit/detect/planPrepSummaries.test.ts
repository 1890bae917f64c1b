// Pins when a prep summary is due: after closing on a working day, once, complete only from a pending walk
// begun after closing, incomplete with its reason once the grace is over, and closing instants that follow
// daylight saving time.
import { describe, expect, it } from 'vitest';
import { coverageKey } from '../../../shared/detect/coverage.js';
import {
  canceledBeforeClosing,
  forgetSummariesBefore,
  PREP_SUMMARY_GRACE_MS,
  type PrepSummaryPlanInput,
  planPrepSummaries,
  prepSummaryKey,
  prepSummaryKeyDate,
} from '../../../shared/detect/planPrepSummaries.js';

const KITCHEN = {
  uuid: '342EDC03-e2a7-4ab9-be97-fa5a5a9c3d9a',
  name: 'Main Canteen',
  working_days: [1, 2, 3, 4, 5],
  order_closing_time: '10:30:00',
};
/** Tuesday 10 March 2026, 10:30 in Lisbon (UTC+0). */
const CLOSES = Date.UTC(2026, 2, 10, 10, 30);
const TODAY = '2026-03-10';

function input(overrides: Partial<PrepSummaryPlanInput> = {}): PrepSummaryPlanInput {
  return {
    establishments: [KITCHEN],
    watched: undefined,
    timeZone: 'Europe/Lisbon',
    now: CLOSES + 30_000,
    dates: [TODAY],
    recorded: new Set(),
    pendingCoveredAt: { [TODAY]: CLOSES + 30_000 },
    shortfall: undefined,
    watchingSince: CLOSES - 3_600_000,
    ...overrides,
  };
}

describe('planPrepSummaries', () => {
  it('is not due before closing', () => {
    expect(planPrepSummaries(input({ now: CLOSES - 1, pendingCoveredAt: { [TODAY]: CLOSES - 1 } }))).toEqual(
      [],
    );
  });

  it('is due, complete, once a pending walk begun at or after closing covered the date', () => {
    expect(planPrepSummaries(input())).toEqual([
      {
        closing: {
          establishment: { uuid: KITCHEN.uuid, name: KITCHEN.name },
          pickupDate: TODAY,
          closesAt: CLOSES,
        },
      },
    ]);
  });

  it('sends none for a closing that passed before anyone watched: its figures are gone', () => {
    expect(planPrepSummaries(input({ watchingSince: CLOSES + 1 }))).toEqual([]);
    expect(planPrepSummaries(input({ watchingSince: null }))).toEqual([]);
  });

  it('is incomplete when the first walk after closing began after the grace: picked-up orders are missing', () => {
    const late = CLOSES + PREP_SUMMARY_GRACE_MS + 60_000;
    const [summary] = planPrepSummaries(input({ now: late, pendingCoveredAt: { [TODAY]: late } }));
    expect(summary?.incompleteReason).toMatch(/began too late/);
  });

  it('waits within the grace when the last walk began before closing', () => {
    expect(planPrepSummaries(input({ pendingCoveredAt: { [TODAY]: CLOSES - 1 } }))).toEqual([]);
    expect(
      planPrepSummaries(input({ pendingCoveredAt: {}, now: CLOSES + PREP_SUMMARY_GRACE_MS - 1 })),
    ).toEqual([]);
  });

  it('is due incomplete, with the reason, once the grace is over', () => {
    const [due] = planPrepSummaries(
      input({
        pendingCoveredAt: {},
        now: CLOSES + PREP_SUMMARY_GRACE_MS,
        shortfall: 'listing pending failed (HTTP 503)',
      }),
    );
    expect(due?.incompleteReason).toBe(
      'the pending listing could not be walked completely within 5 minutes of closing: listing pending failed (HTTP 503)',
    );
  });

  it('is not due again once recorded (the key ignores the uuid’s case)', () => {
    const recorded = new Set([prepSummaryKey(KITCHEN.uuid.toLowerCase(), TODAY)]);
    expect(planPrepSummaries(input({ recorded }))).toEqual([]);
  });

  it('is never due on a day the establishment does not work', () => {
    const saturday = '2026-03-14';
    const closes = Date.UTC(2026, 2, 14, 10, 30);
    expect(
      planPrepSummaries(
        input({ dates: [saturday], now: closes + 60_000, pendingCoveredAt: { [saturday]: closes + 60_000 } }),
      ),
    ).toEqual([]);
  });

  it('reads coverage per establishment when establishments are listed apart, and sums up only those watched', () => {
    const other = { ...KITCHEN, uuid: '11111111-1111-4111-8111-111111111111', name: 'Sports Hall' };
    const plans = planPrepSummaries(
      input({
        establishments: [KITCHEN, other],
        watched: [KITCHEN.uuid],
        pendingCoveredAt: { [coverageKey(TODAY, KITCHEN.uuid)]: CLOSES + 1 },
      }),
    );
    expect(plans.map((plan) => plan.closing.establishment.name)).toEqual(['Main Canteen']);
  });

  it('follows daylight saving time: 10:30 in Lisbon is 09:30 UTC in summer', () => {
    const summer = '2026-07-07';
    const closes = Date.UTC(2026, 6, 7, 9, 30);
    expect(
      planPrepSummaries(
        input({ dates: [summer], now: closes - 1, pendingCoveredAt: { [summer]: closes - 1 } }),
      ),
    ).toEqual([]);
    expect(
      planPrepSummaries(input({ dates: [summer], now: closes, pendingCoveredAt: { [summer]: closes } }))[0]
        ?.closing.closesAt,
    ).toBe(closes);
  });
});

describe('canceledBeforeClosing', () => {
  it('counts the establishment’s orders of that date canceled before the closing instant only', () => {
    const closing = {
      establishment: { uuid: KITCHEN.uuid, name: KITCHEN.name },
      pickupDate: TODAY,
      closesAt: CLOSES,
    };
    const at = (ms: number) => new Date(ms).toISOString();
    const sighting = (canceledAt: string | null, overrides = {}) => ({
      establishmentUuid: KITCHEN.uuid.toLowerCase(),
      pickupDate: TODAY,
      canceledAt,
      ...overrides,
    });
    expect(
      canceledBeforeClosing(
        [
          sighting(at(CLOSES - 1)),
          sighting(at(CLOSES)),
          sighting(null),
          sighting(at(CLOSES - 1), { pickupDate: '2026-03-11' }),
          sighting(at(CLOSES - 1), { establishmentUuid: 'another' }),
        ],
        closing,
      ),
    ).toBe(1);
  });
});

describe('prepSummaryKeyDate', () => {
  it('reads the pickup date back from a summary’s key', () => {
    expect(prepSummaryKeyDate(prepSummaryKey(KITCHEN.uuid, TODAY))).toBe(TODAY);
  });

  it('is empty for a key without its separator, so such a key sorts before any window', () => {
    expect(prepSummaryKeyDate(KITCHEN.uuid)).toBe('');
  });
});

describe('forgetSummariesBefore', () => {
  const entry = { eventId: 'e-1', closedAt: CLOSES, complete: true };

  it('keeps the summaries of the window’s first date and later, and forgets older ones', () => {
    const summaries = {
      [prepSummaryKey(KITCHEN.uuid, '2026-03-09')]: entry,
      [prepSummaryKey(KITCHEN.uuid, TODAY)]: entry,
      [prepSummaryKey('11111111-1111-4111-8111-111111111111', '2026-03-11')]: entry,
    };
    expect(forgetSummariesBefore(summaries, TODAY)).toEqual({
      [prepSummaryKey(KITCHEN.uuid, TODAY)]: entry,
      [prepSummaryKey('11111111-1111-4111-8111-111111111111', '2026-03-11')]: entry,
    });
  });

  it('forgets a key it cannot read a date from', () => {
    expect(forgetSummariesBefore({ [KITCHEN.uuid]: entry }, TODAY)).toEqual({});
  });
});
