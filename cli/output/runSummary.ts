// The summary the long-running runner prints on exit: per organization, the cycles it ran, the listing
// problems they met, the events it recorded, what it delivered, and what the outbox still holds.

import { counted } from '../../shared/text/counted.js';
import type { LogRecord } from '../logging/logger.js';
import type { OrganizationTally } from '../runtime/runTally.js';
import type { OutboxCounts } from './pollReportLine.js';

export interface SummaryRow extends OrganizationTally, OutboxCounts {}

export function runSummaryRecord(rows: SummaryRow[], durationMs: number): LogRecord {
  const header = ['organization', 'cycles', 'failed', 'problems', 'events', 'delivered', 'queued', 'dead'];
  const lines = [header, ...rows.map(cellsOf)];
  const total = rows.reduce(
    (sum, row) => ({
      events: sum.events + row.events,
      delivered: sum.delivered + row.delivered,
      problems: sum.problems + row.listingProblems,
    }),
    { events: 0, delivered: 0, problems: 0 },
  );
  // Said in the first line too: the warnings that told each problem may have scrolled away long ago.
  const problems =
    total.problems === 0 ? '' : ` ${counted(total.problems, 'listing problem')} met (see the warnings).`;
  const message = [
    `Stopped after ${describeDuration(durationMs)}: ${counted(total.events, 'event')} recorded, ${counted(total.delivered, 'delivery', 'deliveries')} made.${problems}`,
    ...alignColumns(lines).map((line) => `  ${line}`),
  ].join('\n');
  return {
    level: 'info',
    kind: 'summary',
    message,
    fields: {
      durationMs,
      organizations: rows.map((row) => ({
        organization: row.name,
        organizationId: row.id,
        cycles: row.cycles,
        failedCycles: row.failedCycles,
        listingProblems: row.listingProblems,
        events: row.events,
        delivered: row.delivered,
        failedAttempts: row.failedAttempts,
        queued: row.queued,
        dead: row.dead,
      })),
    },
  };
}

function cellsOf(row: SummaryRow): string[] {
  return [
    row.name,
    row.cycles,
    row.failedCycles,
    row.listingProblems,
    row.events,
    row.delivered,
    row.queued,
    row.dead,
  ].map(String);
}

/** First column left-aligned, numbers right-aligned. */
function alignColumns(lines: string[][]): string[] {
  const widths = lines[0]?.map((_, column) =>
    Math.max(...lines.map((cells) => (cells[column] ?? '').length)),
  );
  return lines.map((cells) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths?.[column] ?? 0) : cell.padStart(widths?.[column] ?? 0),
      )
      .join('  '),
  );
}

export function describeDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
