import { describe, expect, it } from 'vitest';
import { holderGoneOnThisHost } from '../../../shared/poll/holderGoneOnThisHost.js';
import { localRunId } from '../../../shared/poll/localRunId.js';

const SELF = { host: 'build-7', pid: 4242, startedAt: 1_795_000_000_000 };
/** Processes 100 and 200 exist on this machine; every probe is recorded. */
function probe() {
  const probed: number[] = [];
  const exists = (pid: number) => {
    probed.push(pid);
    return pid === 100 || pid === 200;
  };
  return { exists, probed };
}

describe('holderGoneOnThisHost', () => {
  it('finds a holder on this host whose process no longer exists gone', () => {
    const { exists, probed } = probe();
    const isGone = holderGoneOnThisHost(SELF, exists);
    expect(isGone(localRunId({ host: 'build-7', pid: 300, startedAt: SELF.startedAt - 60_000 }))).toBe(true);
    expect(probed).toEqual([300]);
  });

  it('finds a holder on this host whose process still exists alive', () => {
    const isGone = holderGoneOnThisHost(SELF, probe().exists);
    expect(isGone(localRunId({ host: 'build-7', pid: 100, startedAt: SELF.startedAt - 60_000 }))).toBe(false);
  });

  it('never probes, and presumes alive, a holder on another host', () => {
    const { exists, probed } = probe();
    const isGone = holderGoneOnThisHost(SELF, exists);
    expect(isGone(localRunId({ host: 'build-8', pid: 300, startedAt: SELF.startedAt }))).toBe(false);
    expect(probed).toEqual([]);
  });

  it('never probes, and presumes alive, a holder that is not a local run', () => {
    const { exists, probed } = probe();
    const isGone = holderGoneOnThisHost(SELF, exists);
    expect(isGone('c0ffee00-1234-4abc-8def-0123456789ab')).toBe(false);
    expect(probed).toEqual([]);
  });

  it('finds an earlier run under this process’s own pid gone, as a container restarted as pid 1 has', () => {
    const { exists, probed } = probe();
    const isGone = holderGoneOnThisHost(SELF, exists);
    expect(isGone(localRunId({ ...SELF, startedAt: SELF.startedAt - 5_000 }))).toBe(true);
    expect(probed).toEqual([]);
  });

  it('does not find this very run gone', () => {
    expect(holderGoneOnThisHost(SELF, probe().exists)(localRunId(SELF))).toBe(false);
  });
});
