import { describe, expect, it } from 'vitest';
import { buildDigest } from '../../../../shared/delivery/digest/buildDigest.js';
import type { PlannedDigest } from '../../../../shared/delivery/digest/planDigests.js';
import {
  DIGEST_MAX_PARTS,
  type DigestSizeLimit,
  splitDigest,
} from '../../../../shared/delivery/digest/splitDigest.js';
import { formatDigestEmail } from '../../../../shared/delivery/email/digestEmail.js';
import { EMAIL_DIGEST_LIMIT } from '../../../../shared/delivery/email/digestEmailLimit.js';
import { snsSubject } from '../../../../shared/delivery/email/snsEmailMessage.js';
import type { DigestEvent } from '../../../../shared/events/digestEvent.js';
import { digestEventId } from '../../../../shared/events/eventId.js';
import {
  AWS_DIGEST_LIMITS,
  DIGEST_PUBLISH_LIMIT,
  SNS_PUBLISH_MAX_BYTES,
} from '../../../../shared/publish/sendDigests.js';
import {
  DIGEST_CLAIM_ITEM_LIMIT,
  DYNAMO_ITEM_MAX_BYTES,
} from '../../../../shared/store/dynamo/dynamoDigestStore.js';
import { makeOrderEvent } from '../../../support/eventFixtures.js';

const ORG = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
const START = Date.parse('2026-11-24T11:00:00Z');
const plan: PlannedDigest = {
  startMs: START,
  endMs: START + 3_600_000,
  digestId: digestEventId('office', ORG, START),
  subscriberId: 'office',
  organization: { id: ORG, name: 'North School', timeZone: 'UTC' },
  digest: { every: '1h', types: ['order.created'] },
};
const partId = (number: number) => digestEventId('office', ORG, START, number);

function digestOf(count: number, organizationName = 'North School'): DigestEvent {
  const log = Array.from({ length: count }, (_, n) => ({
    event: makeOrderEvent({ order: { reference: `R-${n}` } }),
    organizationId: ORG,
    recordedAt: START + n,
  }));
  const built = buildDigest(
    { ...plan, organization: { ...plan.organization, name: organizationName } },
    undefined,
    log,
  );
  if (built === undefined) throw new Error('expected a digest');
  return built;
}

const big = digestOf(3_000);
const references = big.data.events.map((entry) => entry.reference);

describe('splitDigest', () => {
  it('sends a digest that fits as it is, under its own id and with no part', () => {
    const small = digestOf(20);
    expect(splitDigest(small, { limits: AWS_DIGEST_LIMITS, partId })).toEqual([small]);
  });

  it('splits 3,000 events on AWS into numbered parts, each within SNS’s 256 KB and DynamoDB’s 400 KB, every event once and in order', () => {
    expect(DIGEST_PUBLISH_LIMIT.sizeOf(big)).toBeGreaterThan(SNS_PUBLISH_MAX_BYTES);
    const parts = splitDigest(big, { limits: AWS_DIGEST_LIMITS, partId });
    expect(parts).toHaveLength(4);
    for (const part of parts) {
      expect(DIGEST_PUBLISH_LIMIT.sizeOf(part)).toBeLessThanOrEqual(SNS_PUBLISH_MAX_BYTES);
      expect(DIGEST_CLAIM_ITEM_LIMIT.sizeOf(part)).toBeLessThanOrEqual(DYNAMO_ITEM_MAX_BYTES);
      // Every part counts the whole period.
      expect(part.data.by_type).toEqual([{ name: 'order.created', count: 3_000 }]);
    }
    expect(parts.map((part) => part.data.part)).toEqual([
      { number: 1, of: 4, first_event: 1, left_out: 0 },
      { number: 2, of: 4, first_event: 1 + (parts[0]?.data.events.length ?? 0), left_out: 0 },
      expect.objectContaining({ number: 3, of: 4, left_out: 0 }),
      expect.objectContaining({ number: 4, of: 4, left_out: 0 }),
    ]);
    expect(parts.flatMap((part) => part.data.events.map((entry) => entry.reference))).toEqual(references);
  });

  it('gives part 1 the digest’s own id and every other part an id of its own, the same on every run', () => {
    const parts = splitDigest(big, { limits: AWS_DIGEST_LIMITS, partId });
    const ids = parts.map((part) => part.id);
    expect(ids[0]).toBe(plan.digestId);
    expect(new Set(ids).size).toBe(parts.length);
    expect(ids).toEqual([1, 2, 3, 4].map(partId));
    expect(splitDigest(big, { limits: AWS_DIGEST_LIMITS, partId }).map((part) => part.id)).toEqual(ids);
    // No part shares an id with an event it lists, nor with another subscriber's or period's digest.
    const eventIds = new Set(big.data.events.map((entry) => entry.event_id));
    expect(ids.some((id) => eventIds.has(id))).toBe(false);
    expect(ids).not.toContain(digestEventId('kitchen', ORG, START, 2));
    expect(ids).not.toContain(digestEventId('office', ORG, START + 3_600_000, 2));
  });

  it('keeps each claim within DynamoDB’s item limit when that is the only limit', () => {
    expect(DIGEST_CLAIM_ITEM_LIMIT.sizeOf(big)).toBeGreaterThan(DYNAMO_ITEM_MAX_BYTES);
    const parts = splitDigest(big, { limits: [DIGEST_CLAIM_ITEM_LIMIT], partId });
    expect(parts).toHaveLength(2);
    for (const part of parts)
      expect(DIGEST_CLAIM_ITEM_LIMIT.sizeOf(part)).toBeLessThanOrEqual(DYNAMO_ITEM_MAX_BYTES);
  });

  it('splits a local e-mail past 1 MB of text and HTML', () => {
    const parts = splitDigest(big, { limits: [EMAIL_DIGEST_LIMIT], partId });
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(EMAIL_DIGEST_LIMIT.sizeOf(part)).toBeLessThanOrEqual(1_000_000);
    expect(parts.flatMap((part) => part.data.events.map((entry) => entry.reference))).toEqual(references);
  });

  it(`cuts past ${DIGEST_MAX_PARTS} parts, its last part saying how many events are left out`, () => {
    const parts = splitDigest(big, { limits: AWS_DIGEST_LIMITS, partId, maxParts: 2 });
    expect(parts).toHaveLength(2);
    const listed = parts.reduce((sum, part) => sum + part.data.events.length, 0);
    expect(parts.map((part) => part.data.part?.left_out)).toEqual([0, 3_000 - listed]);
    expect(parts.map((part) => part.data.part?.of)).toEqual([2, 2]);
    const last = formatDigestEmail(parts[1] as DigestEvent);
    expect(last.text).toContain(
      `Cut after 2 parts: the period's last ${3_000 - listed} events are left out of this digest.`,
    );
    expect(formatDigestEmail(parts[0] as DigestEvent).text).not.toContain('Cut after');
    expect(DIGEST_MAX_PARTS).toBe(10);
  });

  it('puts an event over every limit in a part of its own, and the cut still counts the rest', () => {
    const tiny: DigestSizeLimit = {
      name: 'tiny',
      maxBytes: 10,
      sizeOf: (message) => JSON.stringify(message).length,
    };
    const parts = splitDigest(digestOf(5), { limits: [tiny], partId, maxParts: 3 });
    expect(parts.map((part) => part.data.events.length)).toEqual([1, 1, 1]);
    expect(parts[2]?.data.part).toEqual({ number: 3, of: 3, first_event: 3, left_out: 2 });
  });
});

describe('a part’s e-mail', () => {
  const parts = splitDigest(big, { limits: AWS_DIGEST_LIMITS, partId });
  const second = parts[1] as DigestEvent;
  const first = second.data.part?.first_event ?? 0;
  const last = first + second.data.events.length - 1;

  it('says which part it is first in the subject, with the period’s whole count', () => {
    expect(formatDigestEmail(second).subject).toBe(
      'Digest part 2 of 4: 3000 events, 11:00–12:00 — North School',
    );
  });

  it('keeps the part in the SNS subject when a long organization name is cut', () => {
    const long = splitDigest(digestOf(3_000, `North School ${'of the Valley '.repeat(10)}`), {
      limits: AWS_DIGEST_LIMITS,
      partId,
    });
    const subject = snsSubject(long[2] as DigestEvent);
    expect(subject.length).toBeLessThanOrEqual(99);
    expect(subject).toMatch(/^Digest part 3 of 4: 3000 events, 11:00-12:00 - North School/);
  });

  it('names its run of events in the text and the HTML', () => {
    const mail = formatDigestEmail(second);
    expect(mail.text).toContain(`Part 2 of 4: events ${first} to ${last} of 3000.`);
    expect(mail.html).toContain(`<p>Part 2 of 4: events ${first} to ${last} of 3000.</p>`);
    expect(mail.text).toMatch(new RegExp(`^ +R-${first - 1}\\s`, 'm'));
    expect(mail.text).not.toMatch(new RegExp(`^ +R-${first - 2}\\s`, 'm'));
  });
});
