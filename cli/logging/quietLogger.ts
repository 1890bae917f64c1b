// --quiet: only the records that need someone's attention (warnings and errors) get through, in either
// log format; cycles, events, deliveries and the summary stay in the state file for `status` to show.
import type { Logger, LogRecord } from './logger.js';

export class QuietLogger implements Logger {
  constructor(private readonly inner: Logger) {}

  log(record: LogRecord): void {
    if (record.level === 'warn' || record.level === 'error') this.inner.log(record);
  }
}
