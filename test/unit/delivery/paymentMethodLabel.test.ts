// A payment method reads the same in every channel: Slack and e-mail (text and HTML) show one label.
import { describe, expect, it } from 'vitest';
import { formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import { paymentMethodLabel } from '../../../shared/delivery/paymentMethodLabel.js';
import type { SlackBlock } from '../../../shared/delivery/slack/slackBlocks.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

function slackFields(blocks: readonly SlackBlock[]): string[] {
  return blocks.flatMap((block) =>
    'fields' in block && block.fields ? block.fields.map(({ text }) => text) : [],
  );
}

describe('paymentMethodLabel', () => {
  it.each([
    ['cash', 'Cash'],
    ['card', 'Card'],
    ['credit', 'Credit'],
    ['voucher', 'voucher'],
  ])('shows %s as %s in Slack and in both parts of the e-mail', (value, label) => {
    expect(paymentMethodLabel(value)).toBe(label);
    const event = makeOrderEvent({ type: 'order.created', order: { payment_method_type: { label, value } } });
    expect(slackFields(formatSlackMessage(event).blocks)).toContain(`*Payment method*\n${label}`);
    const email = formatEmail(event);
    expect(email.text).toContain(`Payment method: ${label}\n`);
    expect(email.html).toMatch(new RegExp(`>Payment method</th><td[^>]*>${label}</td>`));
  });
});
