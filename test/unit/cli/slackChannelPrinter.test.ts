// What `simulate --receivers` prints as the Slack Web API stand-in's channel changes: a burst of edits to a
// board is one reprint of it as it stands once they pause, a board edited without pause is still
// reprinted every few seconds, the last state always lands (on stop too), and --show summary is one line
// per change.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BOARD_MAX_DELAY_MS,
  BOARD_QUIET_MS,
  printSlackChannel,
} from '../../../cli/output/slackChannelPrinter.js';
import { DEFAULT_SLACK_CHANNEL, SlackWorkspace } from '../../../simulator/inbox/slackWorkspace.js';
import { captureSink } from '../../support/sinkCapture.js';

const channel = DEFAULT_SLACK_CHANNEL.id;
let workspace: SlackWorkspace;

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 29, 9, 0, 0) });
  workspace = new SlackWorkspace();
});
afterEach(() => vi.useRealTimers());

const post = (text: string, threadTs?: string) =>
  workspace.postMessage({ channel, text, ...(threadTs ? { thread_ts: threadTs } : {}) }) as unknown as {
    ts: string;
  };
const edit = (ts: string, text: string) => workspace.update({ channel, ts, text });
const prints = (text: string) => text.split('[slack app #kitchen] board').length - 1;

describe('the Slack channel printer', () => {
  it('--show full prints a burst of changes to a board once, as it stands when they pause', () => {
    const out = captureSink();
    printSlackChannel(workspace, out.sink, 'full');
    const board = post('Board v1');
    const reply = post('NS-1 new', board.ts);
    edit(reply.ts, 'NS-1 done');
    edit(board.ts, 'Board v2');
    expect(out.text()).toBe('');
    vi.advanceTimersByTime(BOARD_QUIET_MS);
    expect(prints(out.text())).toBe(1);
    expect(out.text()).toContain('    Board v2\n');
    expect(out.text()).toContain(`↳ reply ${reply.ts} (edited)\n        NS-1 done\n`);
    expect(out.text()).not.toContain('Board v1');
  });

  it('reprints a board edited without pause at least every few seconds, and its last state on stop', () => {
    const out = captureSink();
    const printer = printSlackChannel(workspace, out.sink, 'full');
    const board = post('v0');
    for (let i = 1; i <= 10; i += 1) {
      vi.advanceTimersByTime(BOARD_QUIET_MS / 2);
      edit(board.ts, `v${i}`);
    }
    // Ten edits over 5 s, never a second apart: printed at the 3 s cap, not only at the end.
    expect(BOARD_MAX_DELAY_MS).toBeLessThan(10 * (BOARD_QUIET_MS / 2));
    expect(prints(out.text())).toBeGreaterThanOrEqual(1);
    printer.stop();
    expect(
      out.text().endsWith(`[slack app #kitchen] board ${board.ts} (edited), 0 replies\n    v10\n\n`),
    ).toBe(true);
    // Stopped: nothing more is printed.
    const before = out.text();
    edit(board.ts, 'v11');
    vi.advanceTimersByTime(BOARD_MAX_DELAY_MS);
    expect(out.text()).toBe(before);
  });

  it('shows a deleted board with the thread it leaves', () => {
    const out = captureSink();
    const printer = printSlackChannel(workspace, out.sink, 'full');
    const board = post('Board');
    post('NS-1 new', board.ts);
    workspace.deleteMessage(channel, board.ts);
    printer.flush();
    expect(out.text()).toContain(
      `board ${board.ts} (deleted), 1 reply\n    (the board was deleted in Slack; its thread stays)\n`,
    );
  });

  it('--show summary prints one line per post, edit and deletion as they come', () => {
    const out = captureSink();
    printSlackChannel(workspace, out.sink, 'summary');
    const board = post('Board');
    workspace.postMessage({
      channel,
      text: 'NS-1 canceled late',
      thread_ts: board.ts,
      reply_broadcast: true,
    });
    edit(board.ts, 'Board v2');
    workspace.deleteMessage(channel, board.ts);
    expect(out.text()).toBe(
      [
        '[slack app #kitchen] board posted: Board',
        `[slack app #kitchen] reply in ${board.ts} posted (also sent to the channel): NS-1 canceled late`,
        '[slack app #kitchen] board edited: Board v2',
        '[slack app #kitchen] board deleted: Board v2',
        '',
      ].join('\n'),
    );
  });
});
