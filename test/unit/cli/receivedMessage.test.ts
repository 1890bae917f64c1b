import { describe, expect, it } from 'vitest';
import { formatReceivedMail, formatReceivedSlackMessage } from '../../../cli/output/receivedMessage.js';
import { formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

const event = makeOrderEvent({ order: { reference: 'R-7' } });
const slack = { channel: 'kitchen', ...formatSlackMessage(event) };
const email = formatEmail(event);
const mail = { to: ['office@example.org'], subject: email.subject, text: email.text };

describe('a message the local receivers got, as simulate prints it', () => {
  it('is one summary line by default: the Slack fallback text, the e-mail subject', () => {
    expect(formatReceivedSlackMessage(slack, 'summary')).toBe(`[slack #kitchen] ${slack.text}\n`);
    expect(formatReceivedMail(mail, 'summary')).toBe(`[mail to office@example.org] ${email.subject}\n`);
  });

  it('in full is the summary line, then what the subscriber sees indented, then an empty line', () => {
    const shownSlack = formatReceivedSlackMessage(slack, 'full').split('\n');
    expect(shownSlack[0]).toBe(`[slack #kitchen] ${slack.text}`);
    expect(shownSlack[1]).toBe('    🆕 New order R-7');
    expect(shownSlack).toContain('    Reference:      R-7');
    expect(shownSlack.slice(-2)).toEqual(['', '']);

    const shownMail = formatReceivedMail(mail, 'full');
    const body = email.text.trimEnd().split('\n');
    expect(shownMail).toBe(
      `[mail to office@example.org] ${email.subject}\n${body.map((line) => `    ${line}`).join('\n')}\n\n`,
    );
    // Blank lines of the body are indented too: only the empty line after a message ends it.
    expect(
      shownMail
        .trimEnd()
        .split('\n')
        .slice(1)
        .every((line) => line.startsWith('    ')),
    ).toBe(true);
  });

  it('in full says so when there is nothing more than the summary to show', () => {
    expect(formatReceivedSlackMessage({ channel: 'kitchen', text: 'hi', blocks: undefined }, 'full')).toBe(
      '[slack #kitchen] hi\n    (no blocks: the text above is the message)\n\n',
    );
    expect(formatReceivedMail({ ...mail, text: undefined }, 'full')).toBe(
      `[mail to office@example.org] ${email.subject}\n    (no text part)\n\n`,
    );
  });
});
