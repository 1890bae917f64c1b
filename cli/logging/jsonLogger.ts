// Log records for machines: one JSON object per line, with the time, level, kind, the readable message
// and the record's fields, so journald, Loki or CloudWatch can filter on them.
import type { OutputSink } from '../output/outputSink.js';
import type { Logger, LogRecord } from './logger.js';

export class JsonLogger implements Logger {
  constructor(
    private readonly sink: OutputSink,
    private readonly clock: () => number = Date.now,
  ) {}

  log(record: LogRecord): void {
    const line = {
      time: new Date(this.clock()).toISOString(),
      level: record.level,
      kind: record.kind,
      message: record.message,
      // The envelope's own keys win: a field can never disguise a record's level or kind.
      ...withoutReserved(record.fields ?? {}),
    };
    this.sink.json(line);
  }
}

const RESERVED = new Set(['time', 'level', 'kind', 'message']);

function withoutReserved(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !RESERVED.has(key)));
}
