// Whether the run holding a lease is known to have ended, so that its lease is taken over at once instead
// of waited out. Only a local run on this machine can be checked, by asking the operating system whether
// its process still exists; any other holder (another machine, a Lambda invocation, a name this cannot
// read) is presumed alive until its lease runs out. Pure: the process check is handed in.
import { parseLocalRunId } from './localRunId.js';

/** The process asking, and its one question to the operating system. */
export interface ThisProcess {
  host: string;
  pid: number;
  /** When this process started (epoch ms). */
  startedAt: number;
  /** Whether a process with this id exists on this machine; true when it cannot tell. */
  exists(pid: number): boolean;
}

/**
 * A holder's pid reused by an unrelated process reads as alive: its lease is then waited out, never taken
 * from a live run. Containers that share a hostname (host networking) but not their process ids defeat
 * the check; give each its own hostname, or its own state file.
 */
export function holderGoneOnThisHost(self: ThisProcess): (owner: string) => boolean {
  return (owner) => {
    const holder = parseLocalRunId(owner);
    if (!holder || holder.host !== self.host) return false;
    // Our own pid: a run that started before this process did was an earlier process that had the pid (a
    // container's runner restarted as pid 1 again, say), and has ended; a later one is this process's.
    if (holder.pid === self.pid) return holder.startedAt < self.startedAt;
    return !self.exists(holder.pid);
  };
}
