import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../cli/errors.js';
import { openEventSink } from '../../../cli/poll/eventSink.js';
import { captureSink } from '../../support/sinkCapture.js';

const dir = mkdtempSync(join(tmpdir(), 'event-sink-'));
const noError = (message: string) => {
  throw new Error(message);
};

describe('where poll --events sends events', () => {
  it('"-" is stdout, one line each', () => {
    const stdout = captureSink();
    const sink = openEventSink('-', noError, stdout.sink);
    sink.write({ id: '1' });
    sink.write({ id: '2' });
    sink.close();
    expect(stdout.text()).toBe('{"id":"1"}\n{"id":"2"}\n');
  });

  it('a file is appended to by each run, and a new one is its owner’s alone', () => {
    const path = join(dir, 'events.jsonl');
    for (const id of ['1', '2']) {
      const sink = openEventSink(path, noError);
      sink.write({ id });
      sink.close();
    }
    expect(readFileSync(path, 'utf8')).toBe('{"id":"1"}\n{"id":"2"}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('nothing without the flag', () => {
    const sink = openEventSink(undefined, noError);
    expect(() => sink.write({})).not.toThrow();
  });

  it('refuses, at once, a file it cannot open, saying why', () => {
    expect(() => openEventSink(join(dir, 'missing', 'events.jsonl'), noError)).toThrow(
      new CliUsageError(
        `--events ${join(dir, 'missing', 'events.jsonl')}: cannot open it to append events: its directory does not exist`,
      ),
    );
    expect(() => openEventSink(dir, noError)).toThrow(/cannot open it to append events: it is a directory/);
  });
});
