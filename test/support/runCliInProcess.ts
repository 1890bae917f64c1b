// Runs a `meal-notifier` command inside the test process, so aws-sdk-client-mock's mocks apply to the AWS
// clients it builds (a spawned process cannot see them): its stdout, stderr and exit code, as main() would
// end it. Its stdout is captured, so it is not a terminal, whatever runs the tests: tables are not fitted.
import { vi } from 'vitest';
import { reportFailure } from '../../cli/errors.js';
import { stderrSink } from '../../cli/output/outputSink.js';
import { buildProgram } from '../../cli/program.js';
import type { CliResult } from './runCli.js';

export async function runCliInProcess(args: string[]): Promise<CliResult> {
  const output = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') => (chunk: string | Uint8Array) => {
    output[stream] += String(chunk);
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture('stdout'));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture('stderr'));
  const isTTY = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
  const columns = process.env.COLUMNS;
  delete process.env.COLUMNS;
  const previousExitCode = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    await buildProgram().parseAsync(['node', 'meal-notifier', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    code = reportFailure(error, stderrSink());
  } finally {
    process.exitCode = previousExitCode;
    stdout.mockRestore();
    stderr.mockRestore();
    if (isTTY) Object.defineProperty(process.stdout, 'isTTY', isTTY);
    else Reflect.deleteProperty(process.stdout, 'isTTY');
    if (columns !== undefined) process.env.COLUMNS = columns;
  }
  return { code, ...output };
}
