// Whether the run holding a lease is known to have ended, so that its lease is taken over at once instead
// of waited out. Only a local run on this machine can be checked, by asking the operating system whether
// its process still exists; any other holder (another machine, a Lambda invocation, a name this cannot
// read) is presumed alive until its lease runs out. Pure: the process check is handed in.
import { type LocalRun, parseLocalRunId } from './localRunId.js';

/** Whether a process with this id exists on this machine; true when it cannot tell. */
export type ProcessProbe = (pid: number) => boolean;

/**
 * `self` is the asking run. A holder's pid reused by an unrelated process reads as alive: its lease is
 * then waited out, never taken from a live run. Containers that share a hostname (host networking) but
 * not their process ids defeat the check; give each its own hostname, or its own state file.
 */
export function holderGoneOnThisHost(
  self: LocalRun,
  processExists: ProcessProbe,
): (owner: string) => boolean {
  return (owner) => {
    const holder = parseLocalRunId(owner);
    if (!holder || holder.host !== self.host) return false;
    // This process has that pid now, so the holder, an earlier start under the same pid (a container's
    // runner restarted as pid 1 again, say), has ended.
    if (holder.pid === self.pid) return holder.startedAt !== self.startedAt;
    return !processExists(holder.pid);
  };
}
