import { describe, expect, it } from 'vitest';
import { runPollScheduler, type ScheduledOrganization } from '../../../cli/runtime/pollScheduler.js';
import type { PollReport } from '../../../shared/poll/pollReport.js';
import { tokenFreeAt } from '../../../shared/poll/takeTurns.js';
import { pollReport } from './pollReportFixture.js';

function organization(id: string, lockKey: string, pollIntervalSeconds = 0.001): ScheduledOrganization {
  return { organization: { id, name: id, pollIntervalSeconds }, lockKey };
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the poll scheduler', () => {
  it('never runs two cycles of organizations sharing a token at the same time', async () => {
    const stop = new AbortController();
    let active = 0;
    let mostActive = 0;
    const cycles = new Map<string, number>();
    await runPollScheduler({
      organizations: [organization('north', 'token-a'), organization('south', 'token-a')],
      runCycle: async () => {
        active += 1;
        mostActive = Math.max(mostActive, active);
        // Gives the other organization every chance to start while this cycle is in flight.
        await tick();
        await tick();
        active -= 1;
        return pollReport();
      },
      onReport: (entry) => {
        const id = entry.organization.id;
        cycles.set(id, (cycles.get(id) ?? 0) + 1);
        if ((cycles.get('north') ?? 0) >= 3 && (cycles.get('south') ?? 0) >= 3) stop.abort();
      },
      onError: (_entry, error) => {
        throw error;
      },
      stop: stop.signal,
    });
    expect(mostActive).toBe(1);
  });

  it('polls organizations with different tokens side by side', async () => {
    const stop = new AbortController();
    const started = { north: deferred<void>(), south: deferred<void>() };
    await runPollScheduler({
      organizations: [organization('north', 'token-a'), organization('south', 'token-b')],
      runCycle: async (entry) => {
        const id = entry.organization.id as 'north' | 'south';
        started[id].resolve();
        // Each cycle ends only once the other has begun: serialized, this would never finish.
        await Promise.all([started.north.promise, started.south.promise]);
        return pollReport();
      },
      onReport: () => stop.abort(),
      onError: (_entry, error) => {
        throw error;
      },
      stop: stop.signal,
    });
  });

  it('lets the cycle in flight finish and report before it resolves on stop', async () => {
    const stop = new AbortController();
    const cycle = deferred<PollReport>();
    const reported: PollReport[] = [];
    const running = runPollScheduler({
      organizations: [organization('north', 'token-a', 3600)],
      runCycle: () => {
        stop.abort();
        return cycle.promise;
      },
      onReport: (_entry, report) => {
        reported.push(report);
      },
      onError: (_entry, error) => {
        throw error;
      },
      stop: stop.signal,
    });
    await tick();
    expect(reported).toEqual([]);
    const report = pollReport({ ordersSeen: 7 });
    cycle.resolve(report);
    // An hour's wait for the next cycle must not hold it: the stop ends the wait.
    await running;
    expect(reported).toEqual([report]);
  });

  it('reports a cycle that throws and polls that organization again, 10 s later at the least', async () => {
    const stop = new AbortController();
    const errors: unknown[] = [];
    const waits: number[] = [];
    let now = 1_000_000;
    let calls = 0;
    await runPollScheduler({
      clock: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
      organizations: [organization('north', 'token-a')],
      runCycle: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database is locked');
        return pollReport();
      },
      onReport: () => stop.abort(),
      onError: (_entry, error) => errors.push(error),
      stop: stop.signal,
    });
    expect(errors).toEqual([new Error('database is locked')]);
    expect(calls).toBe(2);
    expect(waits).toEqual([10_000]);
  });
});

/**
 * Runs the scheduler on a virtual clock until `cycles` cycles have run, each answering `report`.
 * @returns each cycle as `<organization>@<ms>`, in the order they ran
 */
async function cyclesOnVirtualClock(
  organizations: ScheduledOrganization[],
  cycles: number,
  report: (entry: ScheduledOrganization, now: number) => PollReport,
): Promise<string[]> {
  const stop = new AbortController();
  let now = 0;
  const order: string[] = [];
  await runPollScheduler({
    organizations,
    clock: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    runCycle: async (entry) => {
      order.push(`${entry.organization.id}@${now}`);
      if (order.length >= cycles) stop.abort();
      return report(entry, now);
    },
    onReport: () => {},
    onError: (_entry, error) => {
      throw error;
    },
    stop: stop.signal,
  });
  return order;
}

describe('turns on one token', () => {
  it('gives the turn to the organization polled least recently, each due again when its report says', async () => {
    const order = await cyclesOnVirtualClock(
      [organization('north', 'token-a'), organization('south', 'token-a')],
      4,
      // North's pace asks for 30 s between its cycles, south's for 10 s.
      (entry, now) => pollReport({ nextPollAt: now + (entry.organization.id === 'north' ? 30_000 : 10_000) }),
    );
    expect(order).toEqual(['north@0', 'south@0', 'south@10000', 'south@20000']);
  });

  it('walks several organizations on a token in a round it paces: each cycle is followed by what it cost at the token’s rate', async () => {
    const inRound = (id: string): ScheduledOrganization => ({
      ...organization(id, 'token-a'),
      tokenRequestsPerMinute: 45,
    });
    const order = await cyclesOnVirtualClock(
      [inRound('north'), inRound('south'), inRound('east')],
      6,
      // Each organization's own pace would wait a minute; its cadence allows another cycle after 10 s.
      (_entry, now) =>
        pollReport({ requests: 9, nextPollAt: now + 60_000, earliestNextPollAt: now + 10_000 }),
    );
    // 9 requests at 90 % of 45 a minute, held 4.25 s longer in the window (2 s to reach the server, 250 ms
    // each): 14.3 s apart, one turn each.
    const gap = tokenFreeAt(0, 9, 45);
    expect(gap).toBe(Math.round((9 / ((40.5 * 60) / 64.25)) * 60_000));
    expect(order).toEqual([
      'north@0',
      `south@${gap}`,
      `east@${2 * gap}`,
      `north@${3 * gap}`,
      `south@${4 * gap}`,
      `east@${5 * gap}`,
    ]);
  });

  it('never polls an organization in a round before its cadence allows', async () => {
    const order = await cyclesOnVirtualClock(
      [
        { ...organization('north', 'token-a'), tokenRequestsPerMinute: 45 },
        { ...organization('south', 'token-a'), tokenRequestsPerMinute: 45 },
      ],
      4,
      // One request a cycle: the token rests about 1.5 s; a cold cadence allows a cycle every 15 minutes.
      (_entry, now) =>
        pollReport({ requests: 1, nextPollAt: now + 900_000, earliestNextPollAt: now + 900_000 }),
    );
    const rest = tokenFreeAt(0, 1, 45);
    expect(order).toEqual(['north@0', `south@${rest}`, 'north@900000', `south@${900_000 + rest}`]);
  });
});
