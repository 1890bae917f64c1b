// The width the tables on stdout are fitted to: $COLUMNS when set (as ls and ps read it), the terminal's
// when stdout is one, and no limit otherwise: output piped to a file or to grep keeps each row whole,
// and every listing has --json for programs.

export function outputWidth(
  stdout: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  const columns = env.COLUMNS?.trim() ?? '';
  if (/^\d+$/.test(columns) && Number(columns) > 0) return Number(columns);
  return stdout.isTTY === true && (stdout.columns ?? 0) > 0 ? stdout.columns : undefined;
}
