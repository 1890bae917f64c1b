// Runs `meal-notifier` as a real child process: to completion (`runCli`), long-running with a way to
// wait for a line of output and to stop it with a signal (`startCli`), or with its stdout a pipe whose
// reader goes away: a real `head -1` (`runCliIntoHead`), or one closed before anything is written
// (`runCliIntoClosedPipe`); or an npm script as a terminal's foreground job (`startNpmInOwnGroup`).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/meal-notifier.js', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Who the process runs as (POSIX; switching needs root), for what depends on permissions. */
export interface CliUser {
  uid: number;
  gid: number;
}

/**
 * `env` replaces the MEAL_API_* and MEAL_NOTIFIER_* variables of the test's own environment rather than
 * adding to them; a COLUMNS of the test's shell is not passed on either, so tables come out as piped
 * unless a test sets it.
 */
function spawnCli(
  args: string[],
  env: Record<string, string>,
  user?: CliUser,
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { env: cliEnv(env), ...user });
}

function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('MEAL_API_') && !key.startsWith('MEAL_NOTIFIER_') && key !== 'COLUMNS',
    ),
  );
  return { ...baseEnv, ...env, NO_COLOR: '1' };
}

export function runCli(args: string[], env: Record<string, string> = {}, user?: CliUser): Promise<CliResult> {
  const child = spawnCli(args, env, user);
  child.stdin.end();
  const output = collect(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...output }));
  });
}

export interface PipedResult {
  code: number | null;
  /** What `head -1` printed: the command's first line. */
  firstLine: string;
  stderr: string;
}

/**
 * `meal-notifier … | head -1` as a shell runs it: head exits after the first line, and the pipe's
 * reader with it, so whatever the command writes after that meets a closed pipe.
 */
export function runCliIntoHead(args: string[], env: Record<string, string> = {}): Promise<PipedResult> {
  const head = spawn('head', ['-1'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cliEnv(env),
    stdio: ['ignore', head.stdin, 'pipe'],
  });
  // The command holds its own end of the pipe now: ours would keep head waiting for more.
  head.stdin.destroy();
  let firstLine = '';
  let stderr = '';
  head.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    firstLine += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const headDone = new Promise<void>((resolve) => head.on('close', () => resolve()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    head.on('error', reject);
    child.on('close', (code) => void headDone.then(() => resolve({ code, firstLine, stderr })));
  });
}

/** Its stdout a pipe nobody reads any more: the command's first write meets a closed pipe. */
export function runCliIntoClosedPipe(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawnCli(args, env);
  child.stdin.end();
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: '', stderr }));
  });
}

export interface RunningCli {
  readonly output: { stdout: string; stderr: string };
  /** The process started (for `startCliOn`, the launcher on the older Node.js). */
  readonly pid: number | undefined;
  /** Resolves with the exit code once the process has ended, however it was stopped. */
  readonly exited: Promise<number | null>;
  /** Resolves with stdout once it matches `pattern`; rejects if the process ends first. */
  waitForStdout(pattern: RegExp): Promise<string>;
  /** Resolves with stderr once it matches `pattern`; rejects if the process ends first. */
  waitForStderr(pattern: RegExp): Promise<string>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Sends `signal` and goes on (e.g. SIGUSR2 to a process preloaded with fastForwardClock.mjs). */
  signal(signal: NodeJS.Signals): void;
}

export function startCli(args: string[], env: Record<string, string> = {}): RunningCli {
  return watch(spawnCli(args, env), (child, signal) => child.kill(signal));
}

/**
 * `<node> bin/meal-notifier.js <args>`: with another Node.js than the tests' own, such as the machine's
 * older one. `foreground` runs it as a terminal's foreground job, in a process group of its own that
 * `stop` signals whole, as Ctrl-C does; otherwise `stop` signals the process alone, as systemd or `kill`.
 */
export function startCliOn(
  node: string,
  args: string[],
  env: Record<string, string> = {},
  { foreground = false }: { foreground?: boolean } = {},
): RunningCli {
  const child = spawn(node, [BIN, ...args], { env: cliEnv(env), detached: foreground });
  return watch(child, (running, signal) => {
    if (!foreground) running.kill(signal);
    else if (running.pid !== undefined) process.kill(-running.pid, signal);
  });
}

/**
 * `npm <args>` in this repository as a terminal runs it: in a process group of its own (the terminal's
 * foreground job), `stop` signalling the whole group as Ctrl-C does, so npm, the shell running its script
 * and the CLI all get the signal. npm's own warnings (about the user's npm config) stay quiet, and it asks
 * no registry whether it is up to date.
 */
export function startNpmInOwnGroup(args: string[], env: Record<string, string> = {}): RunningCli {
  const child = spawn('npm', args, {
    cwd: REPO,
    env: { ...cliEnv(env), npm_config_loglevel: 'error', npm_config_update_notifier: 'false' },
    detached: true,
  });
  return watch(child, ({ pid }, signal) => {
    if (pid !== undefined) process.kill(-pid, signal);
  });
}

function watch(
  child: ChildProcessWithoutNullStreams,
  signalChild: (child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals) => void,
): RunningCli {
  child.stdin.end();
  const output = collect(child);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output[stream])) return;
        child[stream].off('data', check);
        resolve(output[stream]);
      };
      child[stream].on('data', check);
      exited.then(() =>
        reject(new Error(`exited before printing ${pattern}:\n${output.stdout}${output.stderr}`)),
      );
      check();
    });
  return {
    output,
    pid: child.pid,
    exited,
    waitForStdout: (pattern) => waitFor('stdout', pattern),
    waitForStderr: (pattern) => waitFor('stderr', pattern),
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null) signalChild(child, signal);
      return exited;
    },
    signal: (signal) => {
      if (child.exitCode === null) signalChild(child, signal);
    },
  };
}

function collect(child: ChildProcessWithoutNullStreams): { stdout: string; stderr: string } {
  const output = { stdout: '', stderr: '' };
  // Registered before any other listener so that waiters always see the text that woke them.
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output.stderr += chunk;
  });
  return output;
}
