import { describe, expect, it } from 'vitest';
import { describeLeaseOwner, localRunId, parseLocalRunId } from '../../../shared/poll/localRunId.js';

const RUN = { host: 'build-7', pid: 4242, startedAt: 1_795_000_000_123 };

describe('localRunId', () => {
  it('reads back the host, pid and start it was made of', () => {
    expect(parseLocalRunId(localRunId(RUN))).toEqual(RUN);
  });

  it('reads a hostname with dots and dashes', () => {
    const run = { ...RUN, host: 'ip-10-0-1-17.eu-west-1.compute.internal' };
    expect(parseLocalRunId(localRunId(run))).toEqual(run);
  });

  it('reads no local run in a Lambda request id, with or without a tick’s message id', () => {
    expect(parseLocalRunId('c0ffee00-1234-4abc-8def-0123456789ab')).toBeUndefined();
    expect(parseLocalRunId('c0ffee00-1234-4abc-8def-0123456789ab/msg-1')).toBeUndefined();
    expect(parseLocalRunId('test-run')).toBeUndefined();
  });

  it('reads no local run in a name whose pid is not a process id', () => {
    expect(parseLocalRunId('build-7:0:abc')).toBeUndefined();
    expect(parseLocalRunId('build-7:-4:abc')).toBeUndefined();
    expect(parseLocalRunId('build-7:4242')).toBeUndefined();
  });

  it('describes a local run by its pid and host, any other owner as it is', () => {
    expect(describeLeaseOwner(localRunId(RUN))).toBe('pid 4242 on build-7');
    expect(describeLeaseOwner('r-17')).toBe('r-17');
  });
});
