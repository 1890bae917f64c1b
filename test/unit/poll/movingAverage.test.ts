// Pins the moving average the pace plans from: the newest cycle weighs a fifth, and the first cycle,
// with no history, counts whole.
import { describe, expect, it } from 'vitest';
import { movingAverage } from '../../../shared/poll/movingAverage.js';

describe('movingAverage', () => {
  it('takes the first cycle’s cost whole when there is no history', () => {
    expect(movingAverage(0, 12)).toBe(12);
  });

  it('weighs the newest cycle a fifth against the history', () => {
    expect(movingAverage(10, 20)).toBeCloseTo(12);
    expect(movingAverage(10, 0)).toBeCloseTo(8);
  });
});
