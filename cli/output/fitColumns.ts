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
  const widths = columns.map((texts) => widest(texts, longestLine));
  if (available === undefined) return widths;
  let excess = widths.reduce((sum, width) => sum + width, 0) - available;
  if (excess <= 0) return widths;
  const lines = new LineCounts(columns);
  const words = columns.map((texts) => widest(texts, longestWord));
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
  const rows = new RowHeights(widths.map((width, column) => lines.at(column, width)));
  let best: { column: number; height: number } | undefined;
  widths.forEach((width, column) => {
    if (width <= floor(column)) return;
    const height = rows.withColumn(column, lines.at(column, width - 1));
    const better =
      best === undefined ||
      height < best.height ||
      (height === best.height && width > (widths[best.column] ?? 0));
    if (better) best = { column, height };
  });
  return best?.column;
}

/**
 * Each row's height (its tallest cell) and what it would be without a given column, so that the table's
 * height with one column narrowed costs one pass over the rows, not one per column.
 */
class RowHeights {
  readonly #perColumn: readonly (readonly number[])[];
  readonly #tallest: number[] = [];
  readonly #tallestCount: number[] = [];
  readonly #secondTallest: number[] = [];

  constructor(perColumn: readonly (readonly number[])[]) {
    this.#perColumn = perColumn;
    const rows = perColumn[0]?.length ?? 0;
    for (let row = 0; row < rows; row += 1) {
      let tallest = 0;
      let count = 0;
      let second = 0;
      for (const counts of perColumn) {
        const lines = counts[row] ?? 1;
        if (lines > tallest) {
          second = tallest;
          tallest = lines;
          count = 1;
        } else if (lines === tallest) count += 1;
        else if (lines > second) second = lines;
      }
      this.#tallest.push(tallest);
      this.#tallestCount.push(count);
      this.#secondTallest.push(second);
    }
  }

  /** The table's height with `column`'s cells taking `counts` lines. */
  withColumn(column: number, counts: readonly number[]): number {
    const current = this.#perColumn[column] ?? [];
    let height = 0;
    this.#tallest.forEach((tallest, row) => {
      const alone = (current[row] ?? 1) === tallest && this.#tallestCount[row] === 1;
      const others = alone ? (this.#secondTallest[row] ?? 0) : tallest;
      height += Math.max(others, counts[row] ?? 1);
    });
    return height;
  }
}

/** The lines each cell of a column takes at a width, worked out once per column and width. */
class LineCounts {
  readonly #columns: readonly (readonly string[])[];
  readonly #cache = new Map<string, number[]>();

  constructor(columns: readonly (readonly string[])[]) {
    this.#columns = columns;
  }

  at(column: number, width: number): number[] {
    const key = `${column}:${width}`;
    let counts = this.#cache.get(key);
    if (!counts) {
      counts = (this.#columns[column] ?? []).map((text) => wrapText(text, width).length);
      this.#cache.set(key, counts);
    }
    return counts;
  }
}

/** At least 1; a reduce, not a spread, as a column may hold more rows than a call takes arguments. */
export function widest(texts: readonly string[], widthOf: (text: string) => number): number {
  return texts.reduce((most, text) => Math.max(most, widthOf(text)), 1);
}

function longestLine(text: string): number {
  return Math.max(...text.split('\n').map(displayWidth));
}
