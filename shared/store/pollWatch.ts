// What the AWS watchdog reads of each organization once a minute: when its next cycle is due and how its
// last cycles went, the poll state's `pace` and `health` alone. The DynamoDB store keeps a copy on the
// organization's small lease item, written by the save's give-back of the lease at no extra write, so the
// watchdog's read is billed by that item's size (under 1 KB), not by the poll state's tens of KB.
import * as z from 'zod';
import { PaceStateSchema, PollHealthSchema, type PollState } from './pollState.js';

export const PollWatchSchema = z.object({ pace: PaceStateSchema, health: PollHealthSchema });
export type PollWatch = z.infer<typeof PollWatchSchema>;

/** Organizations read in one request (DynamoDB's BatchGetItem takes 100 keys). */
export const POLL_WATCH_BATCH = 100;

/**
 * The longest `lastError` the copy keeps: the lease item stays under 1 KB, one write unit however long a
 * failure line is. The whole line stays in the poll state, which `status` reads.
 */
export const WATCHED_ERROR_MAX_CHARS = 400;

export interface PollWatchStore {
  /**
   * Each organization's pace and health, by id (undefined: never polled); at most POLL_WATCH_BATCH ids.
   * @throws StateStoreError when the read fails: every organization of the call is then unknown
   */
  loadPollWatches(organizationIds: readonly string[]): Promise<Map<string, PollWatch | undefined>>;
}

/** The copy of a poll state the watchdog reads. */
export function pollWatchOf(state: Pick<PollState, 'pace' | 'health'>): PollWatch {
  const { lastError } = state.health;
  return {
    pace: state.pace,
    health: {
      ...state.health,
      lastError:
        lastError !== null && lastError.length > WATCHED_ERROR_MAX_CHARS
          ? `${lastError.slice(0, WATCHED_ERROR_MAX_CHARS - 1)}…`
          : lastError,
    },
  };
}
