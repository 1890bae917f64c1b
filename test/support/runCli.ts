// Runs `meal-notifier` as a real child process: to completion (`runCli`), or long-running with a way to
// wait for a line of output and to stop it with a signal (`startCli`).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/meal-notifier.js', import.meta.url));

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
 * adding to them.
 */
function spawnCli(
  args: string[],
  env: Record<string, string>,
  user?: CliUser,
): ChildProcessWithoutNullStreams {
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('MEAL_API_') && !key.startsWith('MEAL_NOTIFIER_'),
    ),
  );
  return spawn(process.execPath, [BIN, ...args], { env: { ...baseEnv, ...env, NO_COLOR: '1' }, ...user });
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

export interface RunningCli {
  readonly output: { stdout: string; stderr: string };
  /** Resolves with stdout once it matches `pattern`; rejects if the process ends first. */
  waitForStdout(pattern: RegExp): Promise<string>;
  /** Resolves with stderr once it matches `pattern`; rejects if the process ends first. */
  waitForStderr(pattern: RegExp): Promise<string>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(args: string[], env: Record<string, string> = {}): RunningCli {
  const child = spawnCli(args, env);
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
    waitForStdout: (pattern) => waitFor('stdout', pattern),
    waitForStderr: (pattern) => waitFor('stderr', pattern),
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
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
