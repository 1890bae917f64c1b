// The --log-format option: which logger the runner writes its records with.
import { CliUsageError } from '../errors.js';
import type { OutputSink } from '../output/outputSink.js';
import { HumanLogger } from './humanLogger.js';
import { JsonLogger } from './jsonLogger.js';
import { LOG_FORMATS, type LogFormat } from './logFormat.js';
import type { Logger } from './logger.js';

export function parseLogFormat(text: string): LogFormat {
  const format = LOG_FORMATS.find((candidate) => candidate === text);
  if (!format) throw new CliUsageError(`--log-format "${text}" must be one of ${LOG_FORMATS.join(', ')}`);
  return format;
}

export function createLogger(format: LogFormat, sink: OutputSink, clock: () => number = Date.now): Logger {
  return format === 'json' ? new JsonLogger(sink, clock) : new HumanLogger(sink);
}
