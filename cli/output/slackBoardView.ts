// What `simulate --receivers` prints of the Slack Web API stand-in's channel: with `--show full`, a board
// (one top-level message) as the kitchen sees it now, its blocks as text, then its thread, each reply as
// it stands after its edits; with `--show summary`, one line per post, edit or deletion. Text from the
// notifier's messages goes through the output sink, which shows control characters rather than obeying them.
import { slackBlocksText } from '../../simulator/inbox/slackBlocksText.js';
import type { SlackChange, SlackStoredMessage } from '../../simulator/inbox/slackWorkspace.js';

const INDENT = '    ';

export interface SlackBoardSnapshot {
  channelName: string;
  /** The board's ts: its thread's key. */
  ts: string;
  /** Undefined once the board was deleted (its replies stay, as in Slack). */
  parent: SlackStoredMessage | undefined;
  replies: readonly SlackStoredMessage[];
}

/** `[slack app #kitchen] board 1764400000.000100, edited, 3 replies`, then the board and its thread. */
export function formatSlackBoard(board: SlackBoardSnapshot): string {
  const { parent, replies } = board;
  const state = parent === undefined ? 'deleted' : parent.editedTs !== undefined ? 'edited' : 'as posted';
  const summary = `[slack app #${board.channelName}] board ${board.ts} (${state}), ${counted(replies.length, 'reply', 'replies')}`;
  const lines =
    parent === undefined ? ['(the board was deleted in Slack; its thread stays)'] : messageLines(parent);
  const thread = replies.flatMap((reply) => [
    `↳ reply ${reply.ts}${marks(reply)}`,
    ...messageLines(reply).map((line) => `${INDENT}${line}`),
  ]);
  return `${[summary, ...[...lines, ...(thread.length > 0 ? ['', ...thread] : [])].map((line) => `${INDENT}${line}`)].join('\n')}\n\n`;
}

/** One line for a post, an edit or a deletion: `[slack app #kitchen] reply posted in 1764…: New order NS-1`. */
export function formatSlackChange(channelName: string, change: SlackChange): string {
  const { message } = change;
  const what = message.threadTs === undefined ? 'board' : `reply in ${message.threadTs}`;
  const verb = change.kind === 'posted' ? 'posted' : change.kind === 'updated' ? 'edited' : 'deleted';
  const broadcast = message.replyBroadcast && change.kind === 'posted' ? ' (also sent to the channel)' : '';
  return `[slack app #${channelName}] ${what} ${verb}${broadcast}: ${firstLine(message)}\n`;
}

function messageLines(message: SlackStoredMessage): string[] {
  const lines = slackBlocksText(message.blocks);
  return lines.length > 0 ? lines : message.text.split('\n');
}

function marks(message: SlackStoredMessage): string {
  const said = [
    ...(message.editedTs !== undefined ? ['edited'] : []),
    ...(message.replyBroadcast ? ['also sent to the channel'] : []),
  ];
  return said.length > 0 ? ` (${said.join(', ')})` : '';
}

function firstLine(message: SlackStoredMessage): string {
  return message.text.split('\n')[0] || slackBlocksText(message.blocks)[0] || '(no text)';
}

function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
