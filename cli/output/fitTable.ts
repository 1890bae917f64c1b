// Tables for people, fitted to the width they may take (see fitColumns): cells wrap at spaces, and
// nothing is cut off. Without a width, nothing wraps. A note (a row's last error, say) spans the row.
// Where the columns cannot keep the words a reader scans by whole ("NS-1" over "005"), each row becomes a
// block of header and value lines instead, as psql's expanded display does.
// Drawn here, in one pass, rather than by cli-table3: its layout took seconds for a few thousand rows.
// Cells hold data (references, names, errors): their control characters are shown (terminalSafe) before
// the layout, so that the columns are as wide as what the terminal will show.
import { displayWidth } from './displayWidth.js';
import { fitColumns, widest } from './fitColumns.js';
import { terminalSafe } from './terminalSafe.js';
import { longestWord, wrapText } from './wrapText.js';

/** A row of cells (a cell may hold several lines), or a note spanning the whole row under the last one. */
export type TableRow = readonly string[] | { readonly note: string };

export interface TableSpec {
  head: readonly string[];
  rows: readonly TableRow[];
}

/** What each column adds to its text: a space either side and the border on its left. */
const PER_COLUMN = 3;
/**
 * Words up to this long (references, statuses, dates, headers) are what a table is read by, and breaking
 * them defeats it; ids and URLs, longer, would break in any layout that narrow.
 */
const SCANNED_WORD_MAX = 16;

export function renderTable(table: TableSpec, width: number | undefined): string {
  const spec = shownAsSafe(table);
  const cellRows = spec.rows.filter((row): row is readonly string[] => Array.isArray(row));
  const columns = spec.head.map((header, column) => [header, ...cellRows.map((row) => row[column] ?? '')]);
  const available = width === undefined ? undefined : width - 1 - PER_COLUMN * spec.head.length;
  if (available !== undefined && width !== undefined && scannedWordsWidth(columns) > available) {
    return renderRecords(spec, width);
  }
  const widths = fitColumns(columns, available);
  const noteWidth = widenForNotes(widths, spec.rows, width);
  const rule = (left: string, join: string, right: string) =>
    `${left}${widths.map((columnWidth) => '─'.repeat(columnWidth + 2)).join(join)}${right}`;
  const lines = [rule('┌', '┬', '┐'), ...rowLines(spec.head, widths), rule('├', '┼', '┤')];
  for (const row of spec.rows) {
    if ('note' in row) {
      for (const line of wrapText(row.note, noteWidth)) lines.push(`│ ${pad(line, noteWidth)} │`);
    } else {
      lines.push(...rowLines(row, widths));
    }
  }
  // Under a note, no column ends at the bottom border.
  const last = spec.rows.at(-1);
  lines.push(last !== undefined && 'note' in last ? `└${'─'.repeat(noteWidth + 2)}┘` : rule('└', '┴', '┘'));
  return lines.join('\n');
}

/** A row's cells wrapped to their columns, side by side, as tall as its tallest cell. */
function rowLines(cells: readonly string[], widths: readonly number[]): string[] {
  const wrapped = widths.map((columnWidth, column) => wrapText(cells[column] ?? '', columnWidth));
  const height = Math.max(...wrapped.map((cellLines) => cellLines.length));
  const lines: string[] = [];
  for (let line = 0; line < height; line += 1) {
    const parts = wrapped.map((cellLines, column) => pad(cellLines[line] ?? '', widths[column] ?? 1));
    lines.push(`│ ${parts.join(' │ ')} │`);
  }
  return lines;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * Widens the last column so that the longest note fits on one line, as far as `width` allows (all the
 * way without a width), and returns the width of a note's text: from the first column's text to the
 * last one's, over the borders between.
 */
function widenForNotes(widths: number[], rows: readonly TableRow[], width: number | undefined): number {
  const spanned = () =>
    widths.reduce((sum, columnWidth) => sum + columnWidth, 0) + PER_COLUMN * (widths.length - 1);
  const longestNote = rows.reduce(
    (most, row) => ('note' in row ? Math.max(most, ...row.note.split('\n').map(displayWidth)) : most),
    0,
  );
  const wanted = longestNote - spanned();
  // The note's row adds a border and a space either side.
  const room = width === undefined ? wanted : width - 4 - spanned();
  const last = widths.length - 1;
  if (wanted > 0 && room > 0 && last >= 0) widths[last] = (widths[last] ?? 1) + Math.min(wanted, room);
  return spanned();
}

/** What the columns need to keep their scanned words whole. */
function scannedWordsWidth(columns: readonly (readonly string[])[]): number {
  return columns.reduce((sum, texts) => sum + Math.min(SCANNED_WORD_MAX, widest(texts, longestWord)), 0);
}

/** Each row as its headers beside its values, the values wrapped to what the headers leave; a blank line apart. */
function renderRecords(spec: TableSpec, width: number): string {
  const labels = spec.head.map((header) => header.replaceAll('\n', ' '));
  const labelWidth = Math.max(...labels.map(displayWidth));
  const valueWidth = Math.max(1, width - labelWidth - 2);
  const indent = ' '.repeat(labelWidth + 2);
  const blocks: string[][] = [];
  for (const row of spec.rows) {
    if ('note' in row) {
      blocks.at(-1)?.push(...wrapText(row.note, width));
      continue;
    }
    blocks.push(
      labels.flatMap((label, column) =>
        wrapText(row[column] ?? '', valueWidth).map((line, index) =>
          `${index === 0 ? pad(label, labelWidth + 2) : indent}${line}`.trimEnd(),
        ),
      ),
    );
  }
  return blocks.map((lines) => lines.join('\n')).join('\n\n');
}

function shownAsSafe(spec: TableSpec): TableSpec {
  return {
    head: spec.head.map(terminalSafe),
    rows: spec.rows.map((row) => ('note' in row ? { note: terminalSafe(row.note) } : row.map(terminalSafe))),
  };
}
