// The poll state's schema: state written by an older version, before a field existed, reads back with that
// field's default, so an upgrade never needs a migration of the SQLite file or the DynamoDB items.
import { describe, expect, it } from 'vitest';
import { initialPollState, PollStateSchema } from '../../../shared/store/pollState.js';

describe('PollStateSchema', () => {
  it('reads state saved before unreadable orders were remembered as remembering none', () => {
    const { unreadable: _, ...saved } = { ...initialPollState('org-1'), lastSuccessAt: 1 };
    expect(PollStateSchema.parse(JSON.parse(JSON.stringify(saved)))).toEqual({
      ...initialPollState('org-1'),
      lastSuccessAt: 1,
      unreadable: {},
    });
  });

  it('refuses an unreadable order without since when', () => {
    const state = {
      ...initialPollState('org-1'),
      unreadable: { a: { lastSeenAt: 1, listing: 'pending', page: 1, detail: 'total: invalid' } },
    };
    expect(PollStateSchema.safeParse(state).success).toBe(false);
  });
});
