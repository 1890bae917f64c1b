import { describe, expect, it } from 'vitest';
import { holderGoneOnThisHost, type ThisProcess } from '../../../shared/poll/holderGoneOnThisHost.js';
import { localRunId } from '../../../shared/poll/localRunId.js';

const STARTED_AT = 1_795_000_000_000;

/** This process is pid 4242 on build-7; processes 100 and 200 exist too. Every probe is recorded. */
function thisProcess() {
  const probed: number[] = [];
  const self: ThisProcess = {
    host: 'build-7',
    pid: 4242,
    startedAt: STARTED_AT,
    exists: (pid) => {
      probed.push(pid);
      return pid === 100 || pid === 200 || pid === 4242;
    },
  };
  return { isGone: holderGoneOnThisHost(self), probed };
}

describe('holderGoneOnThisHost', () => {
  it('finds a holder on this host whose process no longer exists gone', () => {
    const { isGone, probed } = thisProcess();
    expect(isGone(localRunId({ host: 'build-7', pid: 300, startedAt: STARTED_AT - 60_000 }))).toBe(true);
    expect(probed).toEqual([300]);
  });

  it('finds a holder on this host whose process still exists alive', () => {
    const { isGone } = thisProcess();
    expect(isGone(localRunId({ host: 'build-7', pid: 100, startedAt: STARTED_AT - 60_000 }))).toBe(false);
  });

  it('never probes, and presumes alive, a holder on another host', () => {
    const { isGone, probed } = thisProcess();
    expect(isGone(localRunId({ host: 'build-8', pid: 300, startedAt: STARTED_AT }))).toBe(false);
    expect(probed).toEqual([]);
  });

  it('never probes, and presumes alive, a holder that is not a local run', () => {
    const { isGone, probed } = thisProcess();
    expect(isGone('c0ffee00-1234-4abc-8def-0123456789ab')).toBe(false);
    expect(probed).toEqual([]);
  });

  it('finds a run under this pid that started before this process gone, as a container restarted as pid 1 has', () => {
    const { isGone, probed } = thisProcess();
    expect(isGone(localRunId({ host: 'build-7', pid: 4242, startedAt: STARTED_AT - 5_000 }))).toBe(true);
    expect(probed).toEqual([]);
  });

  it('finds a run under this pid that started since this process did alive: it is this process', () => {
    const { isGone } = thisProcess();
    expect(isGone(localRunId({ host: 'build-7', pid: 4242, startedAt: STARTED_AT }))).toBe(false);
    expect(isGone(localRunId({ host: 'build-7', pid: 4242, startedAt: STARTED_AT + 900 }))).toBe(false);
  });
});
