import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../cli/output/terminalSafe.js';
import { COLOURED } from '../../../cli/output/terminalStyle.js';
import { captureSink } from '../../support/sinkCapture.js';

describe('OutputSink: text for a person, JSON for a program', () => {
  it('neutralizes all the text it writes, whoever composed it', () => {
    const out = captureSink();
    out.sink.line('NS-1\u001b[2J\u0007 Cantina\r\u009b31m\u202e');
    expect(out.text()).toBe('NS-1\\x1b[2J\\x07 Cantina\\x0d\\x9b31m\\u202e\n');
  });

  it("on a terminal, colours with its own style's SGR codes, the data neutralized before and after", () => {
    const out = captureSink({ isTTY: true });
    const { sink } = out;
    sink.line(`${sink.style.red(terminalSafe('\u001b[2Jcanceled'))} ${sink.style.dim('\u001b]0;x\u0007')}`);
    expect(out.text()).toBe('\u001b[31m\\x1b[2Jcanceled\u001b[39m \u001b[2m\\x1b]0;x\\x07\u001b[22m\n');
  });

  it('writes no colour, and no mark, where colour is not shown: piped, or NO_COLOR set', () => {
    const piped = captureSink();
    piped.sink.line(COLOURED.green('delivered'));
    expect(piped.text()).toBe('delivered\n');
    const noColor = captureSink({ isTTY: true, env: { NO_COLOR: '1' } });
    noColor.sink.line(noColor.sink.style.green('delivered'));
    expect(noColor.text()).toBe('delivered\n');
  });

  it('takes no escape code from data as its own, not even the exact ones it writes', () => {
    const out = captureSink({ isTTY: true });
    out.sink.line('\u001b[31mred\u001b[39m \ufdd0x:31\ufdd1');
    expect(out.text()).toBe('\\x1b[31mred\\x1b[39m \ufdd0x:31\ufdd1\n');
  });

  it('writes JSON as JSON.stringify gives it: the data exact once parsed', () => {
    const out = captureSink({ isTTY: true });
    const value = { reference: 'NS-1\u001b]52;c;SGVsbG8=\u0007', name: 'a\rb\u009b\u202e' };
    out.sink.json(value, 2);
    expect(out.text()).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(JSON.parse(out.text())).toEqual(value);
  });
});
