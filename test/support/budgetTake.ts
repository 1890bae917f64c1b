// One request taken from a budget counter store, a reservation of one counted at the time given, and what
// the window has left after it: the store tests' shorthand.
import type { BudgetCounterStore } from '../../shared/api/budgetCounterStore.js';

export type BudgetTake = { granted: true; remaining: number } | { granted: false; retryAtMs: number };

/** Reserves exactly one request counted at `nowMs`, then reads what is left of the window. */
export async function takeOne(
  store: BudgetCounterStore,
  key: string,
  nowMs: number,
  limit: number,
  windowMs: number,
): Promise<BudgetTake> {
  const reservation = await store.reserve(
    key,
    nowMs,
    { atLeast: 1, atMost: 1, countAtMs: nowMs },
    limit,
    windowMs,
  );
  if ('retryAtMs' in reservation) return { granted: false, retryAtMs: reservation.retryAtMs };
  return { granted: true, remaining: await store.remaining(key, nowMs, limit, windowMs) };
}
