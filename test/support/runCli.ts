// Runs `meal-notifier` as a real child process and collects what it printed and how it exited.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/meal-notifier.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `env` replaces the MEAL_API_* variables of the test's own environment rather than adding to them. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MEAL_API_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...baseEnv, ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
