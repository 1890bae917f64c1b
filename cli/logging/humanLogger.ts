// Log records for people: the readable message alone, one record per line (or block), through the output
// sink, which shows the control characters of the data in it. The message is built once for both formats:
// a JSON record (jsonLogger.ts) carries it with the data exact, for programs.
import type { OutputSink } from '../output/outputSink.js';
import type { Logger, LogRecord } from './logger.js';

export class HumanLogger implements Logger {
  constructor(private readonly sink: OutputSink) {}

  log(record: LogRecord): void {
    this.sink.line(record.message);
  }
}
