// The runner's record of a cycle that threw, and of a step after a cycle that failed: the poll state's
// own words (its last error), one line for a failure a person can act on, and for a bug the line that asks
// for a report with the stacks of the error and its causes.
import { describe, expect, it } from 'vitest';
import { cleanupFailureRecord, cycleFailureRecord } from '../../../cli/output/cycleFailureRecord.js';
import { CycleCleanupError, UnexpectedCycleError } from '../../../shared/poll/errors.js';
import { StoreThrottledError } from '../../../shared/store/errors.js';

const NORTH = { id: 'org-1', name: 'North School' };

describe('cycleFailureRecord', () => {
  it('is one line for a failure a person can act on, the organization named once', () => {
    const error = new StoreThrottledError('commitChange', 'org-1', 'throughput exceeded');
    const record = cycleFailureRecord(NORTH, error);
    expect(record).toMatchObject({
      level: 'error',
      kind: 'failure',
      message:
        'North School: cycle failed: state store commitChange failed for organization org-1: throughput exceeded',
    });
    expect(record.fields).not.toHaveProperty('stack');
  });

  it('asks for a report of a bug, with its stack and its cause’s', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'uuid')");
    const record = cycleFailureRecord(
      NORTH,
      new UnexpectedCycleError('North School', 'listing pending', bug),
    );
    const [line, ...stack] = record.message.split('\n');
    expect(line).toBe(
      "North School: cycle failed: unexpected failure, please report it: listing pending: unexpected TypeError: Cannot read properties of undefined (reading 'uuid')",
    );
    expect(stack.join('\n')).toMatch(/^UnexpectedCycleError: .*\n\s+at /);
    expect(stack.join('\n')).toContain(
      "caused by: TypeError: Cannot read properties of undefined (reading 'uuid')",
    );
    expect(record.fields?.stack).toBe(stack.join('\n'));
  });

  it('says so of a raw error no class of ours wraps, by its class', () => {
    expect(cycleFailureRecord(NORTH, new RangeError('Invalid time value')).message).toMatch(
      /^North School: cycle failed: unexpected failure, please report it: RangeError: Invalid time value\n/,
    );
  });
});

describe('cleanupFailureRecord', () => {
  it('names the step and its cause in one line', () => {
    const cause = new StoreThrottledError('releaseLease', 'org-1', 'throughput exceeded');
    const record = cleanupFailureRecord(new CycleCleanupError('North School', 'give back the lease', cause));
    expect(record).toMatchObject({
      level: 'error',
      kind: 'failure',
      message: `North School: after the cycle, could not give back the lease: StoreThrottledError: ${cause.message}`,
      fields: { organization: 'North School', step: 'give back the lease' },
    });
  });
});
