// The one overdue rule: no successful cycle within max(5 min, 2 × the planned interval + 1 min) less the
// alarm's two one-minute periods and the one it turns overdue in; the planned interval is the pace's (cadence, budget), at least the config's.
import { describe, expect, it } from 'vitest';
import {
  allowanceMs,
  assessOverdue,
  OVERDUE_ALARM_PERIOD_MS,
  OVERDUE_ALARM_PERIODS,
  outageBoundMs,
  plannedIntervalMs,
} from '../../../shared/detect/overdue.js';

const MINUTE = 60_000;
const NOW = Date.parse('2026-03-07T12:00:00.000Z');

describe('the overdue rule', () => {
  it('plans the interval from the pace, never under the config’s shortest gap', () => {
    const base = { pollIntervalSeconds: 60, lastSuccessAt: NOW, lastAttemptAt: NOW };
    expect(plannedIntervalMs({ ...base, nextPollAt: NOW + 15 * MINUTE })).toBe(15 * MINUTE);
    expect(plannedIntervalMs({ ...base, nextPollAt: NOW + 5_000 })).toBe(MINUTE);
    expect(plannedIntervalMs({ ...base, nextPollAt: null })).toBe(MINUTE);
  });

  it('bounds an outage by max(5 min, 2 × interval + 1 min), the alarm’s periods included', () => {
    expect(outageBoundMs(10_000)).toBe(5 * MINUTE);
    expect(outageBoundMs(MINUTE)).toBe(5 * MINUTE);
    expect(outageBoundMs(15 * MINUTE)).toBe(31 * MINUTE);
    for (const interval of [10_000, MINUTE, 15 * MINUTE]) {
      expect(allowanceMs(interval) + (OVERDUE_ALARM_PERIODS + 1) * OVERDUE_ALARM_PERIOD_MS).toBe(
        outageBoundMs(interval),
      );
    }
  });

  it('is not overdue on a closed day polled every 15 minutes, and is after two intervals less two minutes', () => {
    const cold = { pollIntervalSeconds: 60, lastAttemptAt: NOW, nextPollAt: NOW + 15 * MINUTE };
    expect(assessOverdue({ ...cold, lastSuccessAt: NOW }, NOW + 16 * MINUTE)).toEqual({
      overdue: false,
      intervalMs: 15 * MINUTE,
      allowanceMs: 28 * MINUTE,
      ageMs: 16 * MINUTE,
    });
    expect(assessOverdue({ ...cold, lastSuccessAt: NOW }, NOW + 28 * MINUTE).overdue).toBe(false);
    expect(assessOverdue({ ...cold, lastSuccessAt: NOW }, NOW + 28 * MINUTE + 1).overdue).toBe(true);
  });

  it('is overdue when no cycle ever succeeded', () => {
    expect(
      assessOverdue(
        { pollIntervalSeconds: 60, lastSuccessAt: null, lastAttemptAt: null, nextPollAt: null },
        NOW,
      ),
    ).toEqual({ overdue: true, intervalMs: MINUTE, allowanceMs: 2 * MINUTE, ageMs: null });
  });
});
