// How wide each column of a table may be to fit the width available: as wide as its text while the
// table fits; past that, one place at a time from the column where it costs the table the fewest extra
// lines (the widest of those that cost the same), so long values wrap before short ones and a header
// wraps when its column's values would not. No word is broken while another column can still give.
import { displayWidth } from './displayWidth.js';
import { longestWord, wrapText } from './wrapText.js';

/**
 * `columns[c]` holds column c's texts, row by row (the header first); `available` is what the columns'
 * text may take altogether. Returns each column's text width; the natural ones without `available`.
 */
export function fitColumns(columns: readonly (readonly string[])[], available: number | undefined): number[] {
  const widths = columns.map((texts) => Math.max(1, ...texts.map(longestLine)));
  if (available === undefined) return widths;
  let excess = widths.reduce((sum, width) => sum + width, 0) - available;
  if (excess <= 0) return widths;
  const lines = new LineCounts(columns);
  const words = columns.map((texts) => Math.max(1, ...texts.map(longestWord)));
  for (const floor of [(column: number) => words[column] ?? 1, () => 1]) {
    while (excess > 0) {
      const column = cheapestToNarrow(widths, floor, lines);
      if (column === undefined) break;
      widths[column] = (widths[column] ?? 1) - 1;
      excess -= 1;
    }
  }
  return widths;
}

function cheapestToNarrow(
  widths: readonly number[],
  floor: (column: number) => number,
  lines: LineCounts,
): number | undefined {
  let best: { column: number; height: number } | undefined;
  widths.forEach((width, column) => {
    if (width <= floor(column)) return;
    const height = lines.tableHeight(widths.map((w, c) => (c === column ? w - 1 : w)));
    const better =
      best === undefined ||
      height < best.height ||
      (height === best.height && width > (widths[best.column] ?? 0));
    if (better) best = { column, height };
  });
  return best?.column;
}

/** The lines each cell takes at a width, worked out once per column and width. */
class LineCounts {
  readonly #columns: readonly (readonly string[])[];
  readonly #cache = new Map<string, number[]>();

  constructor(columns: readonly (readonly string[])[]) {
    this.#columns = columns;
  }

  /** Lines of all rows together, each row as tall as its tallest cell. */
  tableHeight(widths: readonly number[]): number {
    const perColumn = widths.map((width, column) => this.#of(column, width));
    const rows = Math.max(0, ...perColumn.map((counts) => counts.length));
    let height = 0;
    for (let row = 0; row < rows; row += 1)
      height += Math.max(...perColumn.map((counts) => counts[row] ?? 1));
    return height;
  }

  #of(column: number, width: number): number[] {
    const key = `${column}:${width}`;
    let counts = this.#cache.get(key);
    if (!counts) {
      counts = (this.#columns[column] ?? []).map((text) => wrapText(text, width).length);
      this.#cache.set(key, counts);
    }
    return counts;
  }
}

function longestLine(text: string): number {
  return Math.max(...text.split('\n').map(displayWidth));
}
