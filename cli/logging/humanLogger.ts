// Log records for people: the readable message alone, one record per line (or block).
import type { Logger, LogRecord } from './logger.js';

export class HumanLogger implements Logger {
  constructor(private readonly stream: NodeJS.WritableStream) {}

  log(record: LogRecord): void {
    this.stream.write(`${record.message}\n`);
  }
}
