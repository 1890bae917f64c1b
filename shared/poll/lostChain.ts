// Whether an organization's chain of ticks is lost (pure): the one rule the AWS watchdog restarts chains
// by. Each cycle sends the tick of the next one, delayed until the pace's `nextPollAt`; a chain is lost
// when that due time passed a grace ago and no cycle moved it on (the tick was never sent: a cycle that
// threw, an SQS error, a crashed invocation; or it came early from SQS's 15-minute cap on a delay and found
// nothing due), or when the organization has no cycle planned at all (a first deployment, a token not put
// yet). A tick sent for a chain that was only late is harmless: it finds the cycle not due, or its lease
// held, and sends no tick of its own.
import type { PollState } from '../store/pollState.js';

/**
 * How long past its due time a cycle may not have saved a new one before its chain counts as lost: a tick
 * comes up to a second or two late, and a cycle saves its state when it ends, a few seconds for the
 * reference organization. A cycle that runs longer gets a second tick, which finds its lease held.
 */
export const CHAIN_GRACE_MS = 60_000;

export type ChainVerdict = { lost: false } | { lost: true; why: string };

export function judgeChain(state: Pick<PollState, 'pace'> | undefined, nowMs: number): ChainVerdict {
  if (state === undefined) return { lost: true, why: 'never polled' };
  const { nextPollAt } = state.pace;
  if (nextPollAt === null) return { lost: true, why: 'no cycle planned' };
  if (nowMs - nextPollAt <= CHAIN_GRACE_MS) return { lost: false };
  return { lost: true, why: `its cycle due at ${new Date(nextPollAt).toISOString()} has not run` };
}
