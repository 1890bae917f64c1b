// Reading `--log-format json` output in end-to-end tests: every complete stderr line as a record, and
// waits on conditions over those records (RunningCli waits on a pattern; this pattern runs a predicate).

export interface LogLine {
  time: string;
  level: string;
  kind: string;
  message: string;
  [field: string]: unknown;
}

/** Every complete line (a chunk may end mid-line); throws if one is not JSON, as a log pipeline would. */
export function logLines(stderr: string): LogLine[] {
  const lines = stderr.split('\n');
  lines.pop();
  return lines.filter((line) => line !== '').map((line) => JSON.parse(line) as LogLine);
}

export function ofKind(stderr: string, kind: string): LogLine[] {
  return logLines(stderr).filter((line) => line.kind === kind);
}

/** A RegExp whose test() is `predicate`, for waitForStdout/waitForStderr; `description` names it in errors. */
export function when(description: string, predicate: (text: string) => boolean): RegExp {
  return Object.assign(/(?:)/, { test: predicate, toString: () => description });
}
