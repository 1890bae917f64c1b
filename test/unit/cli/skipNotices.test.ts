import { describe, expect, it } from 'vitest';
import { SkipNotices } from '../../../cli/poll/skipNotices.js';
import { pollReport } from './pollReportFixture.js';

const skippedFor = (holder: string | undefined, organization = { id: 'org-1', name: 'North School' }) =>
  pollReport({ organization, outcome: 'skipped', ...(holder === undefined ? {} : { leaseHolder: holder }) });

describe('SkipNotices', () => {
  it('tells of the first skip for another run’s lease, and of none of the same after it', () => {
    const notices = new SkipNotices();
    expect(notices.worthTelling(skippedFor('run-a'))).toBe(true);
    expect(notices.worthTelling(skippedFor('run-a'))).toBe(false);
    expect(notices.worthTelling(skippedFor('run-a'))).toBe(false);
  });

  it('tells of every cycle that polled or was deferred', () => {
    const notices = new SkipNotices();
    for (const outcome of ['polled', 'polled', 'deferred', 'deferred'] as const) {
      expect(notices.worthTelling(pollReport({ outcome }))).toBe(true);
    }
  });

  it('tells of a skip again once the organization was polled in between', () => {
    const notices = new SkipNotices();
    notices.worthTelling(skippedFor('run-a'));
    const polled = pollReport({ organization: { id: 'org-1', name: 'North School' } });
    expect(notices.worthTelling(polled)).toBe(true);
    expect(notices.worthTelling(skippedFor('run-a'))).toBe(true);
  });

  it('tells of a skip for another holder than the last', () => {
    const notices = new SkipNotices();
    notices.worthTelling(skippedFor('run-a'));
    expect(notices.worthTelling(skippedFor('run-b'))).toBe(true);
    expect(notices.worthTelling(skippedFor('run-b'))).toBe(false);
  });

  it('keeps each organization apart', () => {
    const notices = new SkipNotices();
    notices.worthTelling(skippedFor('run-a'));
    expect(notices.worthTelling(skippedFor('run-a', { id: 'org-2', name: 'South Academy' }))).toBe(true);
  });
});
