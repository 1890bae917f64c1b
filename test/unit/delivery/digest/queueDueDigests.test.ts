import { describe, expect, it } from 'vitest';
import type { SubscriberConfig } from '../../../../shared/config/configSchema.js';
import type { DigestStore } from '../../../../shared/delivery/digest/digestStore.js';
import { queueDueDigests } from '../../../../shared/delivery/digest/queueDueDigests.js';
import type { DigestSizeLimit } from '../../../../shared/delivery/digest/splitDigest.js';
import type { DigestEvent } from '../../../../shared/events/digestEvent.js';
import { digestEventId } from '../../../../shared/events/eventId.js';
import type { StoredEvent } from '../../../../shared/store/stateStore.js';
import { makeOrderEvent } from '../../../support/eventFixtures.js';

const NORTH = { id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'North School', timeZone: 'UTC' };
const SOUTH = { id: '9a2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'South School', timeZone: 'UTC' };
const START = Date.parse('2026-11-24T11:00:00Z');
const NOW = START + 3_600_000 + 60_000;

function emailSubscriber(id: string): SubscriberConfig {
  return {
    id,
    type: 'email',
    to: [`${id}@example.org`],
    includeContactDetails: false,
    enabled: true,
    digest: { every: '1h', types: ['order.created'] },
  };
}
const subscribers = [emailSubscriber('office'), emailSubscriber('kitchen')];

/** A store over an in-memory log whose writes can be made to fail for one subscriber. */
class FakeDigestStore implements DigestStore {
  readonly recorded = new Map<string, DigestEvent>();
  failFor: ((digest: DigestEvent) => boolean) | undefined;
  failListOf: string | undefined;

  constructor(private readonly log: StoredEvent[]) {}

  async listEvents(organizationId: string): Promise<StoredEvent[]> {
    if (organizationId === this.failListOf) throw new Error('the log could not be read');
    return this.log.filter((entry) => entry.organizationId === organizationId);
  }

  async recordDigest(_organizationId: string, digest: DigestEvent): Promise<boolean> {
    if (this.failFor?.(digest)) throw new RangeError('Item size has exceeded the maximum allowed size');
    if (this.recorded.has(digest.id)) return false;
    this.recorded.set(digest.id, digest);
    return true;
  }
}

function logOf(organizationId: string, count: number): StoredEvent[] {
  return Array.from({ length: count }, (_, n) => ({
    event: makeOrderEvent({ order: { reference: `R-${n}` } }),
    organizationId,
    recordedAt: START + n,
  }));
}

/** At most 3 events a message: the digests of 7 events go as 3 parts. */
const threeEvents: DigestSizeLimit = {
  name: 'three events',
  maxBytes: 3,
  sizeOf: (message) => message.data.events.length,
};

function run(store: DigestStore, organizations = [NORTH]) {
  return queueDueDigests({ subscribers, organizations, store, nowMs: NOW, limits: [threeEvents] });
}

describe('queueDueDigests', () => {
  it('records each part under its own id, and a second run records none again', async () => {
    const store = new FakeDigestStore(logOf(NORTH.id, 7));
    const { queued, failed } = await run(store);
    expect(failed).toEqual([]);
    const office = queued.filter((part) => part.data.subscriber_id === 'office');
    expect(office.map((part) => part.id)).toEqual(
      [1, 2, 3].map((number) => digestEventId('office', NORTH.id, START, number)),
    );
    expect(office.map((part) => part.data.events.length)).toEqual([3, 3, 1]);
    expect((await run(store)).queued).toEqual([]);
  });

  it('reports a part whose write throws and still records every other part and the next subscriber’s digest', async () => {
    const store = new FakeDigestStore(logOf(NORTH.id, 7));
    const secondPart = digestEventId('office', NORTH.id, START, 2);
    store.failFor = (digest) => digest.id === secondPart;
    const { queued, failed } = await run(store);
    expect(failed).toEqual([
      {
        periodDigestIds: [digestEventId('office', NORTH.id, START)],
        digestId: secondPart,
        subscriberId: 'office',
        organizationId: NORTH.id,
        part: 'part 2 of 3',
        stage: 'claim',
        reason: 'RangeError: Item size has exceeded the maximum allowed size',
      },
    ]);
    expect(queued.map((part) => `${part.data.subscriber_id} ${part.data.part?.number}`)).toEqual([
      'office 1',
      'office 3',
      'kitchen 1',
      'kitchen 2',
      'kitchen 3',
    ]);

    // The next run records the part that failed, and only it.
    store.failFor = undefined;
    expect((await run(store)).queued.map((part) => part.id)).toEqual([secondPart]);
  });

  it('reports a whole digest that fails, and the next subscriber’s still goes', async () => {
    const store = new FakeDigestStore(logOf(NORTH.id, 2));
    store.failFor = (digest) => digest.data.subscriber_id === 'office';
    const { queued, failed } = await run(store);
    expect(failed.map(({ subscriberId, digestId, part }) => ({ subscriberId, digestId, part }))).toEqual([
      { subscriberId: 'office', digestId: digestEventId('office', NORTH.id, START), part: undefined },
    ]);
    expect(queued.map((digest) => digest.data.subscriber_id)).toEqual(['kitchen']);
  });

  it('reports the digests of an organization whose log cannot be read, and queues another organization’s', async () => {
    const store = new FakeDigestStore([...logOf(NORTH.id, 2), ...logOf(SOUTH.id, 2)]);
    store.failListOf = NORTH.id;
    const { queued, failed } = await run(store, [NORTH, SOUTH]);
    // Once per subscriber, naming every period of the 24-hour catch-up to look at again.
    expect(failed.map((failure) => [failure.subscriberId, failure.organizationId])).toEqual([
      ['office', NORTH.id],
      ['kitchen', NORTH.id],
    ]);
    expect(failed[0]?.periodDigestIds).toHaveLength(24);
    expect(failed[0]?.periodDigestIds).toContain(digestEventId('office', NORTH.id, START));
    expect(failed[0]?.digestId).toBeUndefined();
    expect(failed[0]?.reason).toBe('the event log could not be read: Error: the log could not be read');
    expect(queued.map((digest) => [digest.data.subscriber_id, digest.data.organization.id])).toEqual([
      ['office', SOUTH.id],
      ['kitchen', SOUTH.id],
    ]);
  });
});
