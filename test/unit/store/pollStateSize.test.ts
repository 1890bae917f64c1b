// The poll state's size policy: DynamoDB's way of counting an item, and what is forgotten, in which
// order, when a state would not fit (the DynamoDB Local proof is in test/integration/store).
import { describe, expect, it } from 'vitest';
import { coverageKey } from '../../../shared/detect/coverage.js';
import { prepSummaryKey } from '../../../shared/detect/planPrepSummaries.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';
import {
  attributeValueBytes,
  fitPollState,
  PollStateTooLargeError,
  pollStateBytes,
  trimmedPollStateLine,
} from '../../../shared/store/pollStateSize.js';
import { addDays } from '../../../shared/time/calendarDate.js';

const ORGANIZATION = '0b6c1c36-6f4e-4a55-9d0e-3b9a51c0e8a1';
const KITCHEN = '16496821-5603-43c0-a1c0-b40d45c8b087';

describe('attributeValueBytes', () => {
  it('counts as DynamoDB does: strings in UTF-8, maps and lists with their overhead, names included', () => {
    expect(attributeValueBytes('abc')).toBe(3);
    expect(attributeValueBytes('é')).toBe(2);
    expect(attributeValueBytes(true)).toBe(1);
    expect(attributeValueBytes(null)).toBe(1);
    // 13 digits: 7 bytes by DynamoDB's "about half the digits, plus one"; 8 from above.
    expect(attributeValueBytes(1_780_000_000_000)).toBe(9);
    expect(attributeValueBytes({ ab: 'xyz' })).toBe(3 + 1 + 2 + 3);
    expect(attributeValueBytes(['x', 'yz'])).toBe(3 + 1 + 1 + 1 + 2);
    expect(attributeValueBytes({ gone: undefined, kept: {} })).toBe(3 + 1 + 4 + 3);
  });
});

function stateWithSummaries(dates: readonly string[], itemsEach: number): PollState {
  const state = initialPollState(ORGANIZATION);
  for (const date of dates) {
    state.prepSummaries[prepSummaryKey(KITCHEN, date)] = {
      eventId: `summary-${date}`,
      closedAt: Date.parse(`${date}T08:30:00Z`),
      complete: true,
      items: Object.fromEntries(
        Array.from({ length: itemsEach }, (_, index) => [
          `SKU-${index}`,
          { name: `Item ${index}`, quantity: 3 },
        ]),
      ),
    };
  }
  return state;
}

describe('fitPollState', () => {
  it('leaves a state that fits as it is', () => {
    const state = stateWithSummaries(['2026-11-29', '2026-11-30'], 50);

    const fitted = fitPollState(state);

    expect(fitted.state).toBe(state);
    expect(fitted.forgotHeardItems).toEqual([]);
    expect(fitted.bytes).toBe(pollStateBytes(state));
  });

  it('forgets heard items oldest pickup date first, only as far as it must, and keeps every summary', () => {
    // Listed newest first, to show the order is the pickup date's, not the record's.
    const dates = ['2026-11-30', '2026-11-29', '2026-11-28', '2026-11-27'];
    const state = stateWithSummaries(dates, 100);
    const oneSummaryItems = pollStateBytes(state) - pollStateBytes(stateWithSummaries(dates.slice(1), 100));
    // Room for all but about one and a half summaries' items: the two oldest go.
    const maxBytes = pollStateBytes(state) - Math.round(1.5 * oneSummaryItems);

    const fitted = fitPollState(state, maxBytes);

    expect(fitted.forgotHeardItems).toEqual([
      prepSummaryKey(KITCHEN, '2026-11-27'),
      prepSummaryKey(KITCHEN, '2026-11-28'),
    ]);
    expect(Object.keys(fitted.state.prepSummaries).sort()).toEqual(Object.keys(state.prepSummaries).sort());
    expect(fitted.state.prepSummaries[prepSummaryKey(KITCHEN, '2026-11-27')]).toEqual({
      eventId: 'summary-2026-11-27',
      closedAt: Date.parse('2026-11-27T08:30:00Z'),
      complete: true,
    });
    expect(fitted.state.prepSummaries[prepSummaryKey(KITCHEN, '2026-11-29')]?.items).toBeDefined();
    // Its accounting is exact, and it fits; the state it was given is untouched.
    expect(fitted.bytes).toBe(pollStateBytes(fitted.state));
    expect(fitted.bytes).toBeLessThanOrEqual(maxBytes);
    expect(fitted.untrimmedBytes).toBe(pollStateBytes(state));
    expect(state.prepSummaries[prepSummaryKey(KITCHEN, '2026-11-27')]?.items).toBeDefined();
    const line = trimmedPollStateLine(ORGANIZATION, fitted);
    expect(line).toMatch(
      new RegExp(
        `^poll state of organization ${ORGANIZATION} trimmed to \\d+ KB .* 2 prep summaries from 2026-11-27, .*lower organizations\\[\\]\\.window\\.daysBack`,
      ),
    );
  });

  it('refuses what trimming cannot fit, naming the organization, the largest part and its setting', () => {
    const state = stateWithSummaries(['2026-11-30'], 10);
    for (let day = 0; day < 2_000; day += 1) {
      state.coverage.pendingCoveredAt[coverageKey(addDays('2026-11-30', day), KITCHEN)] = 1_780_000_000_000;
    }

    const fitting = () => fitPollState(state, 50_000);

    expect(fitting).toThrow(PollStateTooLargeError);
    expect(fitting).toThrow(
      new RegExp(
        `^state store savePollState failed for organization ${ORGANIZATION}: the poll state would take \\d+ KB, over the 49 KB one DynamoDB item holds, most of it coverage; lower organizations\\[\\]\\.window`,
      ),
    );
    expect(fitting).toThrow(
      expect.objectContaining({ largestPart: 'coverage', retryable: false, organization: ORGANIZATION }),
    );
  });
});
