// The moving averages of what cycles cost, which the pace plans from: a burst of look-ups in one cycle must
// not push the next cycle away.

/** Weight of the newest cycle. */
const AVERAGE_WEIGHT = 0.2;

export function movingAverage(average: number, latest: number): number {
  return average === 0 ? latest : blend(average, latest);
}

/** The average with the newest cycle weighed in, for counts where 0 is a value and not "nothing yet". */
export function blend(average: number, latest: number): number {
  return average * (1 - AVERAGE_WEIGHT) + latest * AVERAGE_WEIGHT;
}
