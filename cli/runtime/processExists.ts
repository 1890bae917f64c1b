// Whether a process id is in use on this machine, for telling that a lease's holder has ended: signal 0
// checks without sending anything.

type Kill = (pid: number, signal: number) => unknown;

/** True unless the system says no such process (ESRCH); EPERM is a live process of another user. */
export function processExists(pid: number, kill: Kill = process.kill): boolean {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    // Any other answer cannot tell: presume alive, so that a live run's lease is never taken.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
