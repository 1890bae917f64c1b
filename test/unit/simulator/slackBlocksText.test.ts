import { describe, expect, it } from 'vitest';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import { slackBlocksText } from '../../../simulator/inbox/slackBlocksText.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem } from '../../support/orderFactory.js';

describe('slackBlocksText', () => {
  it('shows the message the product sends as a channel would: header, fields as labels, items, context', () => {
    const event = makeOrderEvent({
      type: 'order.canceled',
      order: {
        reference: 'R-1042',
        items: [makeOrderItem({ name: 'Soup & bread', quantity: 2 })],
      },
    });
    const lines = slackBlocksText(formatSlackMessage(event).blocks);
    expect(lines[0]).toBe('❌ Canceled R-1042');
    expect(lines).toContain('Reference:      R-1042');
    expect(lines).toContain(`Establishment:  ${event.data.order.establishment.name}`);
    expect(lines).toContain('Payment method: Card');
    expect(lines).toContain('Items (1)');
    // mrkdwn's escapes undone, so the kitchen's "&" reads as written.
    expect(lines).toContain('2 × Soup & bread');
    expect(lines.at(-1)).toBe(
      `${event.data.organization.name} · Status: pending → canceled · Canceled at 09:30, Thu 5 Mar`,
    );
    expect(lines.join('\n')).not.toMatch(/\*|&amp;/);
  });

  it('names a block it does not know, and shows nothing for a payload without blocks', () => {
    expect(slackBlocksText([{ type: 'divider' }, { type: 'image', image_url: 'x' }, 'junk'])).toEqual([
      '―――',
      '[image block]',
      '[unknown block]',
    ]);
    expect(slackBlocksText(undefined)).toEqual([]);
    expect(slackBlocksText({ blocks: [] })).toEqual([]);
  });
});
