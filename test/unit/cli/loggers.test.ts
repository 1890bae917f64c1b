import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../cli/errors.js';
import { createLogger, parseLogFormat } from '../../../cli/logging/logFormatOption.js';
import { QuietLogger } from '../../../cli/logging/quietLogger.js';
import { captureSink } from '../../support/sinkCapture.js';
import { hostile, obeyedControls } from '../../support/terminalControls.js';

const record = {
  level: 'info',
  kind: 'cycle',
  message: 'North School: 4 requests (46/50 left this minute), 63 orders seen, 0 events',
  fields: { organization: 'North School', requests: 4 },
} as const;

describe('log formats', () => {
  it('human: the readable message alone, one per line', () => {
    const out = captureSink();
    createLogger('human', out.sink).log(record);
    expect(out.text()).toBe(`${record.message}\n`);
  });

  it('json: one object per line with time, level, kind, message and the fields', () => {
    const out = captureSink();
    const logger = createLogger('json', out.sink, () => Date.parse('2026-11-23T10:00:00Z'));
    logger.log(record);
    logger.log({ level: 'warn', kind: 'summary', message: 'two\nlines' });
    const lines = out.text().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      time: '2026-11-23T10:00:00.000Z',
      level: 'info',
      kind: 'cycle',
      message: record.message,
      organization: 'North School',
      requests: 4,
    });
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ kind: 'summary', message: 'two\nlines' });
  });

  it('json: a field cannot pass itself off as the record’s level or kind', () => {
    const out = captureSink();
    createLogger('json', out.sink).log({
      ...record,
      fields: { level: 'debug', kind: 'x', ok: true },
    });
    expect(JSON.parse(out.text())).toMatchObject({ level: 'info', kind: 'cycle', ok: true });
  });

  it('human: the control characters of the data in a message are shown, not obeyed', () => {
    const out = captureSink();
    createLogger('human', out.sink).log({ ...record, message: `detected  created  ${hostile('NS-1')}` });
    expect(obeyedControls(out.text())).toEqual([]);
    expect(out.text()).toContain('NS-1\\x1b]52;c;SGVsbG8=\\x07\\x1b[2J\\x0dX\\x9b31m\\u202e!');
  });

  it('json: the message and the fields carry the data exactly as it came', () => {
    const out = captureSink();
    const reference = hostile('NS-1');
    createLogger('json', out.sink).log({
      ...record,
      message: `detected ${reference}`,
      fields: { reference },
    });
    expect(JSON.parse(out.text())).toMatchObject({ message: `detected ${reference}`, reference });
  });

  it('quiet: warnings and errors only', () => {
    const out = captureSink();
    const logger = new QuietLogger(createLogger('human', out.sink));
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      logger.log({ level, kind: 'delivery', message: level });
    }
    expect(out.text()).toBe('warn\nerror\n');
  });

  it('refuses an unknown --log-format, naming the choices', () => {
    expect(parseLogFormat('json')).toBe('json');
    expect(() => parseLogFormat('yaml')).toThrow(
      new CliUsageError('--log-format "yaml" must be one of human, json'),
    );
  });
});
