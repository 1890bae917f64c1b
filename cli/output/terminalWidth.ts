// How wide a table may be: the terminal's width, or COLUMNS when stdout is not a terminal (a pipe, a
// file, a test), or a width that reads well in a log or a pasted snippet.
const FALLBACK_COLUMNS = 120;
/** Narrower than this, no table reads well: it is laid out for this and the terminal wraps it. */
const MIN_COLUMNS = 60;

export function terminalWidth(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const fromEnv = Number(env.COLUMNS);
  const columns =
    stream.isTTY && stream.columns
      ? stream.columns
      : Number.isInteger(fromEnv) && fromEnv > 0
        ? fromEnv
        : FALLBACK_COLUMNS;
  return Math.max(MIN_COLUMNS, columns);
}
