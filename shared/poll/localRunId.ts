// The name a local run goes by in leases, `host:pid:start`, and reading one back: what lets a runner tell
// that a lease's holder ran on this same machine, and as which process.

export interface LocalRun {
  /** The machine's hostname. */
  host: string;
  pid: number;
  /** When the run started (epoch ms): tells apart two runs that had the same pid. */
  startedAt: number;
}

/** Never a colon in a hostname; the start in base 36 keeps the name short. */
export function localRunId(run: LocalRun): string {
  return `${run.host}:${run.pid}:${run.startedAt.toString(36)}`;
}

/** The local run a lease owner names; undefined for any other owner (a Lambda request id, say). */
export function parseLocalRunId(owner: string): LocalRun | undefined {
  const match = /^([^:]+):([1-9]\d{0,9}):([0-9a-z]{1,11})$/.exec(owner);
  if (!match) return undefined;
  const [, host = '', pid = '', startedAt = ''] = match;
  return { host, pid: Number(pid), startedAt: Number.parseInt(startedAt, 36) };
}

/** A lease owner as a person reads it: `pid 4242 on build-7` for a local run, else as it is. */
export function describeLeaseOwner(owner: string): string {
  const run = parseLocalRunId(owner);
  return run ? `pid ${run.pid} on ${run.host}` : owner;
}
