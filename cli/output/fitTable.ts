// Tables for people, fitted to the width they may take (see fitColumns): cells wrap at spaces, and
// nothing is cut off. Without a width, nothing wraps. A note (a row's last error, say) spans the row.
import Table from 'cli-table3';
import { displayWidth } from './displayWidth.js';
import { fitColumns } from './fitColumns.js';
import { wrapText } from './wrapText.js';

/** A row of cells (a cell may hold several lines), or a note spanning the whole row under the last one. */
export type TableRow = readonly string[] | { readonly note: string };

export interface TableSpec {
  head: readonly string[];
  rows: readonly TableRow[];
}

/** What each column adds to its text: a space either side and the border on its left. */
const PER_COLUMN = 3;

export function renderTable(spec: TableSpec, width: number | undefined): string {
  const cellRows = spec.rows.filter((row): row is readonly string[] => Array.isArray(row));
  const widths = fitColumns(
    spec.head.map((header, column) => [header, ...cellRows.map((row) => row[column] ?? '')]),
    width === undefined ? undefined : width - 1 - PER_COLUMN * spec.head.length,
  );
  const noteWidth = widenForNotes(widths, spec.rows, width);
  const wrap = (text: string, column: number) => wrapText(text, widths[column] ?? 1).join('\n');
  const table = new Table({
    head: spec.head.map(wrap),
    colWidths: widths.map((columnWidth) => columnWidth + 2),
    // Cells arrive wrapped to fit: cli-table3's own wrapping would cut long words off.
    wordWrap: false,
    style: { head: [], border: [], compact: true },
  });
  for (const row of spec.rows) {
    table.push(
      'note' in row
        ? [{ colSpan: widths.length, content: wrapText(row.note, noteWidth).join('\n') }]
        : row.map(wrap),
    );
  }
  return table.toString();
}

/**
 * Widens the last column so that the longest note fits on one line, as far as `width` allows (all the
 * way without a width), and returns the width of a note's text: from the first column's text to the
 * last one's, over the borders between.
 */
function widenForNotes(widths: number[], rows: readonly TableRow[], width: number | undefined): number {
  const spanned = () =>
    widths.reduce((sum, columnWidth) => sum + columnWidth, 0) + PER_COLUMN * (widths.length - 1);
  const notes = rows.flatMap((row) => ('note' in row ? row.note.split('\n').map(displayWidth) : []));
  const wanted = Math.max(0, ...notes) - spanned();
  // The note's row adds a border and a space either side.
  const room = width === undefined ? wanted : width - 4 - spanned();
  const last = widths.length - 1;
  if (wanted > 0 && room > 0 && last >= 0) widths[last] = (widths[last] ?? 1) + Math.min(wanted, room);
  return spanned();
}
