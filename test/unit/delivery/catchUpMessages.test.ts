// The catch-up as people read it: one Slack post (within Slack's limits, mrkdwn escaped) and one e-mail
// (text and escaped HTML; and the SNS e-mail body on AWS) saying why, how many of what, where, and what
// still needs a person: orders after closing and flagged notes.
import { describe, expect, it } from 'vitest';
import { formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import { snsMessageBody, snsSubject } from '../../../shared/delivery/email/snsEmailMessage.js';
import { defaultHighlightWords } from '../../../shared/delivery/highlightWordsOf.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import { buildCatchUp, type StaleEvent } from '../../../shared/events/buildCatchUp.js';
import type { CatchUpEvent } from '../../../shared/events/catchUpEvent.js';
import { sampleCatchUp } from '../../../shared/events/sampleCatchUp.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem } from '../../support/orderFactory.js';
import { allTexts, expectWithinSlackLimits } from './slackLimits.js';

const DETECTED_AT = '2026-03-05T10:00:00.000Z';
const detected = Date.parse(DETECTED_AT);
const MINUTE = 60_000;

function catchUpOf(events: StaleEvent[], unpolled = true, timeZone = 'Europe/Madrid'): CatchUpEvent {
  const first = events[0]?.event ?? makeOrderEvent();
  return buildCatchUp({
    organization: { id: first.data.organization.id, name: first.data.organization.name, timeZone },
    source: first.source,
    catchUpAfterMs: 15 * MINUTE,
    nowMs: detected,
    unpolled: unpolled ? { fromMs: detected - 47 * MINUTE, toMs: detected } : undefined,
    events,
  });
}

const outage = catchUpOf([
  { event: makeOrderEvent({ detectedAt: DETECTED_AT }), sourceTime: detected - 40 * MINUTE },
  { event: makeOrderEvent({ detectedAt: DETECTED_AT }), sourceTime: detected - 35 * MINUTE },
  {
    event: makeOrderEvent({ type: 'order.canceled', detectedAt: DETECTED_AT }),
    sourceTime: detected - 30 * MINUTE,
  },
  {
    event: makeOrderEvent({ detectedAt: DETECTED_AT, summarySent: () => true }),
    sourceTime: detected - 20 * MINUTE,
  },
  {
    event: makeOrderEvent({
      detectedAt: DETECTED_AT,
      order: { notes: 'Peanut allergy', items: [makeOrderItem({ name: 'Lasagne', notes: 'no egg' })] },
    }),
    sourceTime: detected - 18 * MINUTE,
  },
]);

describe('the Slack catch-up', () => {
  it('says how long the organization went unpolled, counts by type and establishment, and lists what needs a person', () => {
    const message = formatSlackMessage(outage);
    expectWithinSlackLimits(message);
    const texts = message.blocks.flatMap(allTexts);
    expect(texts[0]).toBe('⏪ Catch-up: 5 changes at North School');
    expect(texts[1]).toBe(
      'North School was not polled for 47 min (10:13–11:00). These 5 changes (10:20–10:42) happened more than 15 min before they could reach you, so they are summed up here instead of sent one by one.',
    );
    expect(texts).toContain('*By type*\n4 × New order\n1 × Canceled');
    expect(texts).toContain('*By establishment*\n5 × Main canteen');
    expect(texts.find((text) => text.startsWith('*⚠️ After closing (1)*'))).toMatch(
      /\n• ORD-\d+: New order, Main canteen, Thu 5 Mar$/,
    );
    expect(texts.find((text) => text.startsWith('*📝 Notes to read (1)*'))).toMatch(
      /\n• ORD-\d+ — Ana Silva \(3B\), Main canteen, Thu 5 Mar: Peanut allergy · Lasagne: no egg$/,
    );
    expect(message.text).toMatch(/^⏪ Catch-up: 5 changes at North School — North School was not polled/);
  });

  it('says the changes were held up on their way when they were found in time', () => {
    const held = catchUpOf([{ event: makeOrderEvent({ detectedAt: DETECTED_AT }) }], false, 'UTC');
    const texts = formatSlackMessage({
      ...held,
      time: new Date(detected + 20 * MINUTE).toISOString(),
    }).blocks.flatMap(allTexts);
    expect(texts[1]).toMatch(
      /^Notifications were held up on their way to you\. This change \(10:00\) happened more than 15 min before it could reach you, so it is summed up here/,
    );
  });

  it('escapes what people typed, and stays within Slack’s limits however many orders and notes', () => {
    const hostile = '<!channel> & <script>';
    const events = Array.from({ length: 200 }, (_, index) => ({
      event: makeOrderEvent({
        detectedAt: DETECTED_AT,
        summarySent: () => true,
        order: {
          reference: `${hostile} ${index}`,
          notes: `allergy ${'x'.repeat(2_000)}`,
          establishment: {
            uuid: `e5a1b2c3-0000-4000-8000-${String(index % 40).padStart(12, '0')}`,
            name: `${hostile} ${index % 40}`,
          },
        },
      }),
    }));
    const message = formatSlackMessage(catchUpOf(events));
    expectWithinSlackLimits(message);
    const body = message.blocks.slice(1).flatMap(allTexts).join('\n');
    expect(body).not.toContain('<!channel>');
    expect(body).toContain('&lt;!channel&gt; &amp; &lt;script&gt;');
    expect(body).toContain('more_');
  });
});

describe('the e-mail catch-up', () => {
  it('has a one-line subject, the reason, the counts and the lists, in text and escaped HTML', () => {
    const { subject, text, html } = formatEmail(outage);
    expect(subject).toBe('Catch-up: 5 changes at North School, 10:20–10:42');
    expect(text).toContain('North School was not polled for 47 min');
    expect(text).toContain('By type:\n  Change     Count\n  New order      4\n  Canceled       1\n');
    expect(text).toContain('After closing (1), not in the prep summary already sent:');
    expect(text).toMatch(
      /Notes to read \(1\):\n.*\n {2}ORD-\d+ +Ana Silva \(3B\) +Main canteen +Thu 5 Mar +Peanut allergy · Lasagne: no egg\n/,
    );
    expect(text).toContain(`Event notifier.catch_up ${outage.id}, built ${outage.time}.`);
    expect(html).toContain('<h2 style="font-size:15px;margin:20px 0 6px">Notes to read (1)</h2>');
    const hostile = catchUpOf([
      { event: makeOrderEvent({ order: { notes: 'allergy <b>bold</b> & "x"', reference: '<R-1>' } }) },
    ]);
    const email = formatEmail(hostile);
    expect(email.html).toContain('allergy &lt;b&gt;bold&lt;/b&gt; &amp; &quot;x&quot;');
    expect(email.html).not.toContain('<b>bold</b>');
    expect(email.subject).not.toMatch(/[\r\n]/);
  });

  it('is the SNS e-mail body on AWS, under an ASCII subject', () => {
    const { email } = JSON.parse(snsMessageBody(outage, defaultHighlightWords)) as { email: string };
    expect(email.split('\n')[0]).toBe('Catch-up: 5 changes at North School, 10:20–10:42');
    expect(snsSubject(outage)).toBe('Catch-up: 5 changes at North School, 10:20-10:42');
  });

  it('marks the sample send-test delivers as a test', () => {
    const sample = sampleCatchUp({
      organization: { id: 'org', name: 'North School' },
      source: 'https://example.test/api/v1/admin/organizations/org',
      now: detected,
      pickupDate: '2026-03-05',
      nonce: '7f0b3a62-1e0b-4f0f-9a0e-4a1b2c3d4e5f',
    });
    expect(sample.id).toBe('test-7f0b3a62-1e0b-4f0f-9a0e-4a1b2c3d4e5f');
    expect(formatEmail(sample).subject).toMatch(/^\[TEST\] Catch-up: 3 changes/);
    expect(formatSlackMessage(sample).blocks.flatMap(allTexts)[0]).toMatch(/^🧪 TEST · ⏪ Catch-up/);
  });
});
