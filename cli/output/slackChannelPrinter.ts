// Prints the Slack Web API stand-in's channel as it changes, readable however fast the notifier edits:
// `--show summary` prints one line per change as it comes; `--show full` reprints each board that changed
// (with its thread) once its changes pause for a moment, at most a few seconds after the first, so a
// burst of edits is one picture of the board as it stands, and the last state is always printed.
import type { SlackWorkspace } from '../../simulator/inbox/slackWorkspace.js';
import type { OutputSink } from './outputSink.js';
import type { Show } from './receivedMessage.js';
import { formatSlackBoard, formatSlackChange } from './slackBoardView.js';

/** A board is reprinted once it has been quiet this long… */
export const BOARD_QUIET_MS = 1_000;
/** …or this long after its first unprinted change, whichever comes first. */
export const BOARD_MAX_DELAY_MS = 3_000;

export interface SlackChannelPrinter {
  /** Prints every board that changed and is not printed yet, now. */
  flush(): void;
  /** Flushes, then stops listening. */
  stop(): void;
}

export function printSlackChannel(
  workspace: SlackWorkspace,
  stdout: OutputSink,
  show: Show,
): SlackChannelPrinter {
  const channelName = (id: string) => workspace.channel(id)?.name ?? id;
  // Boards waiting to be printed, by channel and board ts, with when their first change came.
  const pending = new Map<string, { channel: string; ts: string; since: number }>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const { channel, ts } of pending.values()) {
      const { parent, replies } = workspace.thread(channel, ts);
      stdout.text(formatSlackBoard({ channelName: channelName(channel), ts, parent, replies }));
    }
    pending.clear();
  };

  const schedule = () => {
    clearTimeout(timer);
    const oldest = Math.min(...[...pending.values()].map((board) => board.since));
    const wait = Math.max(0, Math.min(BOARD_QUIET_MS, oldest + BOARD_MAX_DELAY_MS - Date.now()));
    timer = setTimeout(flush, wait);
    // A board waiting to be printed never keeps the process alive on its own.
    timer.unref();
  };

  const unsubscribe = workspace.onChange((change) => {
    if (show === 'summary') {
      stdout.text(formatSlackChange(channelName(change.message.channel), change));
      return;
    }
    const ts = change.message.threadTs ?? change.message.ts;
    const key = `${change.message.channel}\n${ts}`;
    if (!pending.has(key)) pending.set(key, { channel: change.message.channel, ts, since: Date.now() });
    schedule();
  });

  return {
    flush,
    stop: () => {
      flush();
      unsubscribe();
    },
  };
}
