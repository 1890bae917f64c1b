// Whose turn it is among the organizations sharing one token (pure): of those due, the one polled least
// recently, so that none starves behind a busier one; when none is due yet, the one due first. Several
// organizations on a token are walked in a round: each is due again as soon as its cadence allows, and
// after each cycle the token rests for what that cycle cost at the token's rate, so the round is as long
// as the whole token's requests take, each organization's turn comes once in it, and cycles never come
// due together to queue for a window they fill at once.
import { reservationHoldMs } from '../api/requestBudget.js';
import { roundGapFor } from '../detect/pacePoll.js';

export interface Turn {
  /** When the organization's pace next allows a cycle (epoch ms). */
  dueAt: number;
  /** When its last cycle began; -Infinity before the first. */
  lastPolledAt: number;
}

/** When the token may start its next cycle: the one that began at `startedAt` spent `requests` of it. */
export function tokenFreeAt(startedAt: number, requests: number, usablePerMinute: number): number {
  return startedAt + roundGapFor(usablePerMinute, requests, reservationHoldMs(requests));
}

/**
 * When an organization is next due after a cycle: in a round of several, as soon as its cadence allows
 * (the round paces it); alone on its token, when its own pace says.
 */
export function dueAfter(
  report: { nextPollAt: number; earliestNextPollAt?: number | undefined },
  inRound: boolean,
): number {
  return inRound ? (report.earliestNextPollAt ?? report.nextPollAt) : report.nextPollAt;
}

export function nextTurn<T extends Turn>(
  entries: readonly T[],
  nowMs: number,
  /** When the token is free for the next cycle (tokenFreeAt). @default no wait for the token */
  freeAt = Number.NEGATIVE_INFINITY,
): { entry: T; waitMs: number } | undefined {
  let best: T | undefined;
  for (const entry of entries) {
    if (!best) best = entry;
    else if (entry.dueAt <= nowMs && best.dueAt <= nowMs) {
      if (entry.lastPolledAt < best.lastPolledAt) best = entry;
    } else if (entry.dueAt < best.dueAt) best = entry;
  }
  return best && { entry: best, waitMs: Math.max(0, best.dueAt - nowMs, freeAt - nowMs) };
}
