// The poll state's versions: a state version 1 wrote (one flat record, fields added over time) reads back
// as the current records, with the defaults of fields it predates and its legacy coverage adopted, so an
// upgrade neither re-baselines nor announces old orders; the current version reads back as written.
import { describe, expect, it } from 'vitest';
import {
  initialPollState,
  PollStateSchema,
  storedPollStateSchema,
  upgradePollState,
} from '../../../shared/store/pollState.js';

/** A state as version 1 saved it, with every field it ever had. */
function versionOneState(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organizationId: 'org-1',
    listingSizes: { pending: 40, 'pending[2026-03-01..2026-03-02]': 12 },
    lastFetchedAt: { pending: 1_000 },
    lastWindows: {},
    baselined: [],
    pendingCoveredAt: { '2026-03-05': 1_000 },
    watchingSince: 900,
    sweep: { key: 'completed', nextPage: 3, startedAt: 800 },
    sweptAt: { canceled: 700 },
    sweepCredit: 1.5,
    lookups: { 'order-1': ['completed'] },
    resolutionRequests: 2.5,
    cycleRequests: 9.5,
    unreadable: {},
    establishments: null,
    prepSummaries: { 'est-1|2026-03-05': { eventId: 'evt-1', closedAt: 600, complete: true } },
    nextPollAt: 5_000,
    lastSuccessAt: 1_000,
    lastAttemptAt: 1_000,
    consecutiveFailures: 0,
    lastError: null,
    ...overrides,
  };
}

describe('upgradePollState', () => {
  it('reads every field of a version 1 state into the record of the phase that owns it', () => {
    expect(upgradePollState(versionOneState())).toEqual({
      version: 2,
      organizationId: 'org-1',
      listings: {
        sizes: { pending: 40, 'pending[2026-03-01..2026-03-02]': 12 },
        walkedAt: { pending: 1_000 },
      },
      coverage: { pendingCoveredAt: { '2026-03-05': 1_000 }, watchingSince: 900 },
      sweep: {
        inProgress: { key: 'completed', nextPage: 3, startedAt: 800 },
        sweptAt: { canceled: 700 },
        credit: 1.5,
      },
      lookups: { searched: { 'order-1': ['completed'] }, averageRequests: 2.5 },
      establishments: null,
      prepSummaries: { 'est-1|2026-03-05': { eventId: 'evt-1', closedAt: 600, complete: true } },
      unreadable: {},
      pace: { averageCycleRequests: 9.5, nextPollAt: 5_000 },
      health: {
        lastSuccessAt: 1_000,
        lastAttemptAt: 1_000,
        consecutiveFailures: 0,
        lastError: null,
        tokenRejectedAt: null,
      },
    });
  });

  it('gives a version 1 state the defaults of the fields it was saved before', () => {
    const {
      unreadable: _u,
      prepSummaries: _p,
      establishments: _e,
      nextPollAt: _n,
      sweep: _s,
      sweepCredit: _c,
      ...oldest
    } = versionOneState();
    const upgraded = upgradePollState(oldest);
    expect(upgraded.unreadable).toEqual({});
    expect(upgraded.prepSummaries).toEqual({});
    expect(upgraded.establishments).toBeNull();
    expect(upgraded.pace.nextPollAt).toBeNull();
    expect(upgraded.sweep).toEqual({ inProgress: null, sweptAt: { canceled: 700 }, credit: 0 });
  });

  it('reads the coverage of a state saved before per-date coverage from the window its pending walk covered', () => {
    const upgraded = upgradePollState(
      versionOneState({
        pendingCoveredAt: {},
        watchingSince: null,
        baselined: ['pending@est-1', 'completed'],
        lastFetchedAt: { 'pending@est-1': 1_000, completed: 500 },
        lastWindows: {
          'pending@est-1': { startDate: '2026-03-04', endDate: '2026-03-06' },
          completed: { startDate: '2026-03-04', endDate: '2026-03-06' },
        },
      }),
    );
    expect(upgraded.coverage).toEqual({
      pendingCoveredAt: { '2026-03-04@est-1': 1_000, '2026-03-05@est-1': 1_000, '2026-03-06@est-1': 1_000 },
      watchingSince: 1_000,
    });
  });

  it('keeps the per-date coverage of a state that already had it, ignoring what came before it', () => {
    const upgraded = upgradePollState(
      versionOneState({
        baselined: ['pending'],
        lastWindows: { pending: { startDate: '2026-03-01', endDate: '2026-03-09' } },
      }),
    );
    expect(upgraded.coverage).toEqual({ pendingCoveredAt: { '2026-03-05': 1_000 }, watchingSince: 900 });
  });

  it('reads a current state back as it was written', () => {
    const state = { ...initialPollState('org-1'), pace: { averageCycleRequests: 3, nextPollAt: 9 } };
    expect(upgradePollState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('reads a version 2 state saved before a rejected token was marked as one whose token is not rejected', () => {
    const { tokenRejectedAt: _, ...health } = initialPollState('org-1').health;
    const older = { ...initialPollState('org-1'), health: { ...health, lastError: 'North School: 503' } };
    expect(upgradePollState(JSON.parse(JSON.stringify(older))).health).toEqual({
      ...health,
      lastError: 'North School: 503',
      tokenRejectedAt: null,
    });
  });

  it('keeps since when the token was rejected', () => {
    const state = initialPollState('org-1');
    const rejected = { ...state, health: { ...state.health, tokenRejectedAt: 1_234 } };
    expect(upgradePollState(JSON.parse(JSON.stringify(rejected)))).toEqual(rejected);
  });

  it('refuses a version 1 state missing a field it always had, naming the field', () => {
    const { consecutiveFailures: _, ...broken } = versionOneState();
    const parsed = storedPollStateSchema(broken).safeParse(broken);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['consecutiveFailures']);
  });
});

describe('PollStateSchema', () => {
  it('refuses an unreadable order without since when', () => {
    const state = {
      ...initialPollState('org-1'),
      unreadable: { a: { lastSeenAt: 1, listing: 'pending', page: 1, detail: 'total: invalid' } },
    };
    expect(PollStateSchema.safeParse(state).success).toBe(false);
  });

  it('reads a summary saved before heard totals were kept as it was, and one with them', () => {
    const without = { eventId: 'evt-1', closedAt: 600, complete: true };
    const heard = { ...without, items: { LAS: { name: 'Lasagne', quantity: 40 } } };
    const state = {
      ...initialPollState('org-1'),
      prepSummaries: { 'a|2026-03-05': without, 'b|2026-03-05': heard },
    };
    expect(upgradePollState(JSON.parse(JSON.stringify(state))).prepSummaries).toEqual({
      'a|2026-03-05': without,
      'b|2026-03-05': heard,
    });
    const zero = { ...without, items: { LAS: { name: 'Lasagne', quantity: 0 } } };
    expect(PollStateSchema.safeParse({ ...state, prepSummaries: { x: zero } }).success).toBe(false);
  });

  it('refuses a version it does not know', () => {
    expect(PollStateSchema.safeParse({ ...initialPollState('org-1'), version: 3 }).success).toBe(false);
  });
});
