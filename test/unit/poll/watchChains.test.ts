// The watchdog's use case over every organization: a chain whose due time passed a grace ago (or that never
// started) gets a restarting tick, a chain on time gets none, and each overdue organization is named with
// why, in the words `meal-notifier status --stack` uses.
import { describe, expect, it } from 'vitest';
import { CHAIN_GRACE_MS } from '../../../shared/poll/lostChain.js';
import { watchChains } from '../../../shared/poll/watchChains.js';
import { initialPollState, type PollState } from '../../../shared/store/pollState.js';

const NOW = Date.parse('2026-03-11T10:00:00.000Z');
const MINUTE = 60_000;

function organization(id: string) {
  return { id, name: `School ${id}`, pollIntervalSeconds: 60 };
}

function state(
  id: string,
  times: {
    lastSuccessAt: number;
    nextPollAt: number;
    lastError?: string;
    lastAttemptAt?: number;
    tokenRejectedAt?: number;
  },
): PollState {
  const initial = initialPollState(id);
  return {
    ...initial,
    pace: { ...initial.pace, nextPollAt: times.nextPollAt },
    health: {
      lastSuccessAt: times.lastSuccessAt,
      lastAttemptAt: times.lastAttemptAt ?? times.lastSuccessAt,
      consecutiveFailures: times.lastError === undefined ? 0 : 3,
      lastError: times.lastError ?? null,
      tokenRejectedAt: times.tokenRejectedAt ?? null,
    },
  };
}

async function watch(states: Record<string, PollState | Error | undefined>) {
  const restarted: Array<{ organizationId: string; dueAt: number }> = [];
  const report = await watchChains(Object.keys(states).map(organization), {
    store: {
      async loadPollWatches(ids: readonly string[]) {
        const found = ids.map((id) => [id, states[id]] as const);
        // As DynamoDB's batch read: one item that fails fails the request.
        const failed = found.find(([, value]) => value instanceof Error)?.[1];
        if (failed instanceof Error) throw failed;
        return new Map(found as (readonly [string, PollState | undefined])[]);
      },
    },
    restart: async (organizationId, dueAt) => restarted.push({ organizationId, dueAt }),
    clock: () => NOW,
  });
  return { report, restarted };
}

describe('watchChains', () => {
  it('names the organizations whose token stands rejected, and no other', async () => {
    const { report } = await watch({
      rejected: state('rejected', {
        lastSuccessAt: NOW - 30 * MINUTE,
        nextPollAt: NOW + 4 * MINUTE,
        lastError: 'Rejected: token rejected: put a new token; the API answered 401',
        tokenRejectedAt: NOW - 20 * MINUTE,
      }),
      fine: state('fine', { lastSuccessAt: NOW - 30_000, nextPollAt: NOW + 30_000 }),
      never: undefined,
    });
    expect(report.tokenRejected).toEqual([{ organization: 'rejected', name: 'School rejected' }]);
  });

  it('restarts a chain that never started and one whose cycle is a grace overdue, not one on time', async () => {
    const { report, restarted } = await watch({
      never: undefined,
      lost: state('lost', { lastSuccessAt: NOW - 3 * MINUTE, nextPollAt: NOW - CHAIN_GRACE_MS - 1 }),
      onTime: state('onTime', { lastSuccessAt: NOW - 30_000, nextPollAt: NOW + 30_000 }),
      justDue: state('justDue', { lastSuccessAt: NOW - MINUTE, nextPollAt: NOW - CHAIN_GRACE_MS }),
    });
    expect(restarted).toEqual([
      { organizationId: 'never', dueAt: NOW },
      { organizationId: 'lost', dueAt: NOW },
    ]);
    expect(report.restarted).toEqual([
      { organization: 'never', why: 'never polled' },
      { organization: 'lost', why: expect.stringContaining('has not run') },
    ]);
  });

  it('names each overdue organization and why, as status --stack does, and counts an unreadable state as overdue', async () => {
    const { report } = await watch({
      failing: state('failing', {
        lastSuccessAt: NOW - 30 * MINUTE,
        lastAttemptAt: NOW - 50_000,
        nextPollAt: NOW + 10_000,
        lastError: 'School failing: the Admin API answered 401',
      }),
      healthy: state('healthy', { lastSuccessAt: NOW - 30_000, nextPollAt: NOW + 30_000 }),
      unreadable: new Error('DynamoDB unreachable'),
    });
    expect(report.overdue).toEqual([
      {
        organization: 'failing',
        name: 'School failing',
        problem: expect.stringMatching(
          /^School failing: last successful poll .* 3 failed cycles in a row, the last: the Admin API answered 401$/,
        ),
      },
      {
        organization: 'unreadable',
        name: 'School unreadable',
        problem: expect.stringContaining('could not be read'),
      },
    ]);
    expect(report.unreadable).toEqual([{ organization: 'unreadable', error: expect.any(Error) }]);
  });

  it('keeps a restart that failed for the next run, and restarts the others', async () => {
    const restarted: string[] = [];
    const report = await watchChains([organization('a'), organization('b')], {
      store: { loadPollWatches: async () => new Map() },
      restart: async (id) => {
        if (id === 'a') throw new Error('SQS refused');
        restarted.push(id);
      },
      clock: () => NOW,
    });
    expect(restarted).toEqual(['b']);
    expect(report.restartFailed).toEqual([
      { organization: 'a', why: 'never polled', error: expect.any(Error) },
    ]);
  });
});
