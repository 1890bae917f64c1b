// The CLI's logging port: every status, event, delivery, request and failure line of the runner is
// one record, written for people (a readable line) or for machines (one JSON object per line), as
// --log-format says.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What a record is about, so a log pipeline can route on it without parsing the message. */
export type LogKind =
  | 'cycle'
  | 'event'
  | 'failure'
  | 'listing'
  | 'delivery'
  | 'request'
  | 'summary'
  | 'lifecycle';

export interface LogRecord {
  level: LogLevel;
  kind: LogKind;
  /** The readable line (it may span lines, e.g. a summary table). */
  message: string;
  /** Machine-readable details; JSON logs carry them next to the message. */
  fields?: Record<string, unknown>;
}

export interface Logger {
  log(record: LogRecord): void;
}
