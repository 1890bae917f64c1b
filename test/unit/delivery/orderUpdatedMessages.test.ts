// `order.updated` as a kitchen reads it: what changed ("Lasagne: 1 → 2", a new note) in full print above
// the order in Slack and in both parts of the e-mail, a changed note that names an allergy marked, and a
// header and subject that say what kind of change it was.
import { describe, expect, it } from 'vitest';
import type { OrderInput } from '../../../shared/api/schemas.js';
import { emailSubject, formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import { snsSubject } from '../../../shared/delivery/email/snsEmailMessage.js';
import type { SlackMessage } from '../../../shared/delivery/slack/slackBlocks.js';
import { formatSlackMessage, headerText } from '../../../shared/delivery/slack/slackMessage.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem } from '../../support/orderFactory.js';
import { expectWithinSlackLimits } from './slackLimits.js';

type OrderItemInput = OrderInput['items'][number];

const LASAGNE_LINE = '7e0c0000-0000-4000-8000-00000000a001';
const lasagne = (quantity: number, notes: string | null = null): OrderItemInput =>
  makeOrderItem({ uuid: LASAGNE_LINE, sku: 'LAS', name: 'Lasagne', quantity, notes });

/** Lasagne 1 → 2, and a note on the order from none to `note`. */
function updated(note: string | null = 'Allergic to eggs', lineNote: string | null = null): OrderEvent {
  return makeOrderEvent({
    type: 'order.updated',
    order: { reference: 'R-1042', notes: note, items: [lasagne(2, lineNote)] },
    before: { notes: null, items: [lasagne(1)] },
  });
}

function onlyQuantity(): OrderEvent {
  return makeOrderEvent({
    type: 'order.updated',
    order: { reference: 'R-1042', notes: null, items: [lasagne(2)] },
    before: { notes: null, items: [lasagne(1)] },
  });
}

function sections(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

describe('Slack: order.updated', () => {
  it('shows what changed in a section of its own, above the order’s fields', () => {
    const message = formatSlackMessage(updated());
    const changed = message.blocks.findIndex(
      (block) => block.type === 'section' && block.text?.text.startsWith('*Changed*'),
    );
    const fields = message.blocks.findIndex((block) => block.type === 'section' && block.fields);
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(fields);
    expect(sections(message)[0]?.split('\n')).toEqual([
      '*Changed*',
      '• Lasagne: 1 → 2',
      '🚨 Notes: none → Allergic to eggs',
    ]);
    expectWithinSlackLimits(message);
  });

  it('leaves the changes out of the small print, which names the organization', () => {
    const message = formatSlackMessage(updated());
    const small = message.blocks.filter((block) => block.type === 'context');
    expect(JSON.stringify(small)).not.toContain('→');
  });

  it('names the kind of change in the header, the notes marked when a new note names an allergy', () => {
    expect(headerText(updated())).toBe('✏️ Changed R-1042 · items, 🚨 notes');
    expect(headerText(updated('Picked up by grandma'))).toBe('✏️ Changed R-1042 · items, notes');
    expect(headerText(onlyQuantity())).toBe('✏️ Changed R-1042 · items');
    expect(headerText(updated(), [])).toBe('✏️ Changed R-1042 · items, notes');
    expect(formatSlackMessage(updated()).text).toMatch(/^✏️ Changed R-1042 · items, 🚨 notes — /);
  });

  it('shows a changed item note, flagged with the organization’s words', () => {
    const event = updated(null, 'no gluten');
    expect(sections(formatSlackMessage(event))[0]).toContain('🚨 Notes on Lasagne: none → no gluten');
    expect(sections(formatSlackMessage(event, ['egg']))[0]).toContain('• Notes on Lasagne: none → no gluten');
  });

  it('escapes a hostile changed note and keeps it on one line', () => {
    const text = sections(formatSlackMessage(updated('<!here> & <b>\nnuts')))[0] ?? '';
    expect(text).toContain('🚨 Notes: none → &lt;!here&gt; &amp; &lt;b&gt; nuts');
    expect(text.split('\n')).toHaveLength(3);
  });
});

describe('E-mail: order.updated', () => {
  it('lists what changed first, above the fields, a flagged note marked', () => {
    const { text } = formatEmail(updated());
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Changed:',
      '  Lasagne: 1 → 2',
      '  [ALLERGY/DIET] Notes: none → Allergic to eggs',
    ]);
    expect(text.indexOf('Changed:')).toBeLessThan(text.indexOf('Reference:'));
    expect(text).not.toContain('\nChanges:');
  });

  it('puts the changes above the fields in HTML, a flagged one highlighted', () => {
    const { html } = formatEmail(updated());
    expect(html.indexOf('>Changed</h2>')).toBeLessThan(html.indexOf('>Reference</th>'));
    expect(html).toContain('<li>Lasagne: 1 → 2</li>');
    expect(html).toMatch(
      /<li style="background:#fdecea">.*ALLERGY\/DIET<\/span> Notes: none → Allergic to eggs<\/li>/,
    );
  });

  it('says in the subject what changed, and when a new note names an allergy', () => {
    expect(emailSubject(updated())).toMatch(/^Order R-1042 changed: items, notes \[ALLERGY\/DIET\] — /);
    expect(emailSubject(onlyQuantity())).toMatch(/^Order R-1042 changed: items — /);
    expect(emailSubject(updated(), [])).toMatch(/^Order R-1042 changed: items, notes — /);
    expect(snsSubject(updated())).toMatch(/^Order R-1042 changed: items, notes \[ALLERGY\/DIET\] - /);
  });

  it('keeps other events’ changes under the order, as before', () => {
    const { text } = formatEmail(makeOrderEvent({ type: 'order.canceled' }));
    expect(text).toContain('\nChanges:\n  Status: pending → canceled');
    expect(text.startsWith('Changed:')).toBe(false);
  });
});
