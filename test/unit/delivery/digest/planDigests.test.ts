import { describe, expect, it } from 'vitest';
import type { SubscriberConfig } from '../../../../shared/config/configSchema.js';
import { isDigested, planDigests } from '../../../../shared/delivery/digest/planDigests.js';
import { digestEventId } from '../../../../shared/events/eventId.js';

const office: SubscriberConfig = {
  id: 'office',
  type: 'email',
  to: ['office@example.org'],
  includeContactDetails: false,
  enabled: true,
  digest: { every: '1h', types: ['order.created'] },
};
const north = { id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'North School', timeZone: 'Europe/Lisbon' };
const south = { id: '4f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'South School', timeZone: 'Asia/Kolkata' };
const NOW = Date.parse('2026-11-24T12:10:00Z');

describe('planDigests', () => {
  it('plans each ended period of each organization in its own zone, with ids stable across calls', () => {
    const plan = (nowMs: number) =>
      planDigests({ subscribers: [office], organizations: [north, south], nowMs, catchUpMs: 3_600_000 });
    const plans = plan(NOW);
    expect(plans.map((p) => [p.organization.name, new Date(p.endMs).toISOString()])).toEqual([
      ['North School', '2026-11-24T12:00:00.000Z'],
      ['South School', '2026-11-24T11:30:00.000Z'],
    ]);
    // A restart minutes later plans the same periods under the same ids.
    expect(plan(NOW + 300_000).map((p) => p.digestId)).toEqual(plans.map((p) => p.digestId));
  });

  it('derives the id from subscriber, organization and period start, and from nothing else', () => {
    const id = digestEventId('office', north.id, Date.parse('2026-11-24T11:00:00Z'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(digestEventId('office', north.id.toUpperCase(), Date.parse('2026-11-24T11:00:00Z'))).toBe(id);
    expect(digestEventId('kitchen', north.id, Date.parse('2026-11-24T11:00:00Z'))).not.toBe(id);
    expect(digestEventId('office', south.id, Date.parse('2026-11-24T11:00:00Z'))).not.toBe(id);
    expect(digestEventId('office', north.id, Date.parse('2026-11-24T12:00:00Z'))).not.toBe(id);
  });

  it('leaves out disabled subscribers and those without a digest', () => {
    const plans = planDigests({
      subscribers: [
        { ...office, enabled: false },
        { ...office, id: 'plain', digest: undefined },
      ],
      organizations: [north],
      nowMs: NOW,
    });
    expect(plans).toEqual([]);
  });

  it('holds back only the digest types of the digest subscriber', () => {
    expect(isDigested(office, { type: 'order.created' })).toBe(true);
    expect(isDigested(office, { type: 'order.canceled' })).toBe(false);
    expect(isDigested({ ...office, digest: undefined }, { type: 'order.created' })).toBe(false);
  });
});
