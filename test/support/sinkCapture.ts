// An output sink over a stream that keeps what is written, standing in for stdout or stderr in tests of
// what the CLI prints: a terminal or not (colour is shown only on one), NO_COLOR unset unless given.
import { Writable } from 'node:stream';
import { OutputSink } from '../../cli/output/outputSink.js';

export interface SinkCapture {
  sink: OutputSink;
  /** Everything written so far. */
  text(): string;
}

export function captureSink({
  isTTY = false,
  env = {},
}: {
  isTTY?: boolean;
  env?: NodeJS.ProcessEnv;
} = {}): SinkCapture {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    { isTTY },
  );
  return { sink: new OutputSink(stream, env), text: () => text };
}
