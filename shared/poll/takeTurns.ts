// Whose turn it is among the organizations sharing one token (pure): of those due, the one polled least
// recently, so that none starves behind a busier one; when none is due yet, the one due first.

export interface Turn {
  /** When the organization's pace next allows a cycle (epoch ms). */
  dueAt: number;
  /** When its last cycle began; -Infinity before the first. */
  lastPolledAt: number;
}

export function nextTurn<T extends Turn>(
  entries: readonly T[],
  nowMs: number,
): { entry: T; waitMs: number } | undefined {
  let best: T | undefined;
  for (const entry of entries) {
    if (!best) best = entry;
    else if (entry.dueAt <= nowMs && best.dueAt <= nowMs) {
      if (entry.lastPolledAt < best.lastPolledAt) best = entry;
    } else if (entry.dueAt < best.dueAt) best = entry;
  }
  return best && { entry: best, waitMs: Math.max(0, best.dueAt - nowMs) };
}
