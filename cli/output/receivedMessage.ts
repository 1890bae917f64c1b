// What `simulate --receivers` prints for each message its local Slack endpoint and SMTP server receive:
// one summary line (`--show summary`, the default), or that line and then, indented, what a subscriber
// sees (`--show full`): the Slack blocks as text, the e-mail's text part.
import type { ReceivedMail } from '../../simulator/inbox/mailInbox.js';
import { slackBlocksText } from '../../simulator/inbox/slackBlocksText.js';
import type { ReceivedSlackMessage } from '../../simulator/inbox/slackInbox.js';

export const SHOW_CHOICES = ['summary', 'full'] as const;
export type Show = (typeof SHOW_CHOICES)[number];

const INDENT = '    ';

export function formatReceivedSlackMessage(message: ReceivedSlackMessage, show: Show): string {
  const summary = `[slack #${message.channel}] ${message.text}`;
  if (show === 'summary') return `${summary}\n`;
  const lines = slackBlocksText(message.blocks);
  return withBody(summary, lines.length > 0 ? lines : ['(no blocks: the text above is the message)']);
}

export function formatReceivedMail(mail: ReceivedMail, show: Show): string {
  const summary = `[mail to ${mail.to.join(', ')}] ${mail.subject}`;
  if (show === 'summary') return `${summary}\n`;
  const lines = mail.text === undefined ? ['(no text part)'] : mail.text.replace(/\n+$/, '').split('\n');
  return withBody(summary, lines);
}

/**
 * The summary, then every line of the body indented (blank ones too, so only the empty line after it ends
 * a message), so messages stay apart when they pile up and a script can cut them apart.
 */
function withBody(summary: string, lines: string[]): string {
  return `${[summary, ...lines.map((line) => `${INDENT}${line}`)].join('\n')}\n\n`;
}
