import { describe, expect, it } from 'vitest';
import type { DigestConfig } from '../../../../shared/config/configSchema.js';
import { buildDigest } from '../../../../shared/delivery/digest/buildDigest.js';
import type { PlannedDigest } from '../../../../shared/delivery/digest/planDigests.js';
import { formatDigestEmail } from '../../../../shared/delivery/email/digestEmail.js';
import type { NotifierEvent } from '../../../../shared/events/notifierEvent.js';
import type { StoredEvent } from '../../../../shared/store/stateStore.js';
import { makeOrderEvent } from '../../../support/eventFixtures.js';
import { makePrepChanged } from '../../../support/prepChangedFixtures.js';

const ORG = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
const START = Date.parse('2026-11-24T11:00:00Z');
const END = START + 3_600_000;
const digest: DigestConfig = { every: '1h', types: ['order.created', 'order.completed'] };
const plan: PlannedDigest = {
  startMs: START,
  endMs: END,
  digestId: 'digest-id',
  subscriberId: 'office',
  organization: { id: ORG, name: 'North School', timeZone: 'Europe/Lisbon' },
  digest,
};

function stored(event: NotifierEvent, recordedAt: number): StoredEvent {
  return { event, organizationId: ORG, recordedAt };
}

describe('buildDigest', () => {
  const created = makeOrderEvent({ order: { reference: 'R-1' } });
  const created2 = makeOrderEvent({ order: { reference: 'R-2' } });
  const completed = makeOrderEvent({ type: 'order.completed', order: { reference: 'R-3' } });
  const canceled = makeOrderEvent({ type: 'order.canceled', order: { reference: 'R-4' } });
  const log = [
    stored(created, START - 1),
    stored(created2, START),
    stored(completed, START + 60_000),
    stored(canceled, START + 120_000),
    stored(makeOrderEvent({ order: { reference: 'R-5' } }), END),
  ];

  it('gathers the events of its types recorded in [start, end), counted by type and establishment', () => {
    const built = buildDigest(plan, undefined, log);
    expect(built?.data.events.map((entry) => entry.reference)).toEqual(['R-2', 'R-3']);
    expect(built?.data.by_type).toEqual([
      { name: 'order.completed', count: 1 },
      { name: 'order.created', count: 1 },
    ]);
    expect(built?.data.by_establishment).toEqual([{ name: 'Main canteen', count: 2 }]);
    expect(built).toMatchObject({
      id: 'digest-id',
      type: 'digest.email',
      subject: 'office',
      time: '2026-11-24T12:00:00+00:00',
      data: { period_start: '2026-11-24T11:00:00+00:00', period_end: '2026-11-24T12:00:00+00:00' },
    });
  });

  it('applies the subscriber filter too', () => {
    expect(buildDigest(plan, { types: ['order.completed'] }, log)?.data.events).toHaveLength(1);
  });

  it('lists a prep_changed by its establishment and day', () => {
    const changed = makePrepChanged();
    const built = buildDigest(
      { ...plan, digest: { every: '1h', types: ['establishment.prep_changed'] } },
      undefined,
      [stored(changed, START + 1)],
    );
    expect(built?.data.events).toEqual([
      {
        event_id: changed.id,
        type: 'establishment.prep_changed',
        reference: 'Main Canteen 2026-11-26',
        establishment: 'Main Canteen',
        pickup_date: '2026-11-26',
        time: changed.time,
      },
    ]);
  });

  it('makes nothing of an empty period, so nothing is sent for it', () => {
    expect(buildDigest(plan, undefined, [stored(canceled, START + 1)])).toBeUndefined();
  });
});

describe('formatDigestEmail', () => {
  const events = Array.from({ length: 14 }, (_, n) => makeOrderEvent({ order: { reference: `R-${n}` } }));
  const built = buildDigest(
    plan,
    undefined,
    events.map((event, n) => stored(event, START + n)),
  );
  if (built === undefined) throw new Error('expected a digest');
  const mail = formatDigestEmail(built);

  it('says the count, the period on the organization clock and the organization in the subject', () => {
    expect(mail.subject).toBe('Digest: 14 events, 11:00–12:00 — North School');
  });

  it('lists the counts, then one row per order in text and HTML', () => {
    expect(mail.text).toContain('By type:');
    expect(mail.text).toMatch(/order\.created\s+14/);
    expect(mail.text).toMatch(/Main canteen\s+14/);
    expect(mail.text).toMatch(/R-13\s+order\.created\s+Main canteen/);
    expect(mail.html).toContain(
      '<td style="padding:4px 12px 4px 0;vertical-align:top;text-align:left">R-0</td>',
    );
    expect(mail.text).toContain(`Event digest.email digest-id, built`);
  });

  it('escapes what the API wrote in the HTML part', () => {
    const hostile = buildDigest(plan, undefined, [
      stored(makeOrderEvent({ order: { reference: '<b>R</b>' } }), START),
    ]);
    expect(hostile && formatDigestEmail(hostile).html).toContain('&lt;b&gt;R&lt;/b&gt;');
  });

  it('names a daily period by its days', () => {
    const daily = {
      ...built,
      data: {
        ...built.data,
        every: '1d' as const,
        period_start: '2026-11-23T17:30:00+00:00',
        period_end: '2026-11-24T17:30:00+00:00',
      },
    };
    expect(formatDigestEmail(daily).subject).toBe(
      'Digest: 14 events, Mon 23 Nov 17:30 – Tue 24 Nov 17:30 — North School',
    );
  });
});
