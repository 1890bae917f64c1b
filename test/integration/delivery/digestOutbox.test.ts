// Digests through the real SQLite outbox: digest-type events are held for the digest subscriber (others
// still get them at once), the ended period's digest is built from the log and queued for that
// subscriber alone, a second look or a restart is refused by the digest's id, and the digest is retried
// and delivered like any event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SubscriberConfig } from '../../../shared/config/configSchema.js';
import type { DeliveryOutcome, EventSender } from '../../../shared/delivery/deliveryOutcome.js';
import { isDigested } from '../../../shared/delivery/digest/planDigests.js';
import { queueDueDigests } from '../../../shared/delivery/digest/queueDueDigests.js';
import { EMAIL_DIGEST_LIMIT } from '../../../shared/delivery/email/digestEmailLimit.js';
import { OutboxDelivery } from '../../../shared/delivery/outboxDelivery.js';
import { matchesFilter } from '../../../shared/delivery/subscriberFilter.js';
import type { DigestEvent } from '../../../shared/events/digestEvent.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { makeEvent, makeSnapshot, newOrderUuid } from '../../support/stateStoreConformance.js';

const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';
const organization = { id: ORG, name: 'North School', timeZone: 'UTC' };
const HOUR_START = Date.parse('2026-11-24T11:00:00Z');
const subscribers: SubscriberConfig[] = [
  {
    id: 'office',
    type: 'email',
    to: ['office@example.org'],
    includeContactDetails: false,
    enabled: true,
    digest: { every: '1h', types: ['order.created'] },
  },
  {
    id: 'hook',
    type: 'webhook',
    url: 'https://example.test/hook',
    secret: [{ env: 'S' }],
    includeContactDetails: false,
    enabled: true,
  },
];
let now: number;
let store: SqliteStateStore;

class RecordingSender implements EventSender {
  readonly sent: string[] = [];
  readonly digests: DigestEvent[] = [];
  constructor(private readonly digestScript: DeliveryOutcome[] = []) {}
  async send(event: OrderEvent): Promise<DeliveryOutcome> {
    this.sent.push(event.type);
    return { kind: 'delivered' };
  }
  async sendDigest(digest: DigestEvent): Promise<DeliveryOutcome> {
    this.digests.push(digest);
    return this.digestScript.shift() ?? { kind: 'delivered' };
  }
}

async function logEvent(type: OrderEvent['type']): Promise<void> {
  const snapshot = makeSnapshot(newOrderUuid(), {
    status: type === 'order.canceled' ? 'canceled' : 'pending',
  });
  await store.commitChange(ORG, { snapshot, events: [makeEvent(ORG, snapshot.orderUuid, type)] });
}

function tick() {
  return queueDueDigests({
    subscribers,
    organizations: [organization],
    store,
    nowMs: now,
    limits: [EMAIL_DIGEST_LIMIT],
  });
}

function engine(office: RecordingSender, hook = new RecordingSender()) {
  return new OutboxDelivery({
    outbox: store.outbox,
    senders: { senderFor: async (id) => (id === 'office' ? office : hook) },
    clock: () => now,
    random: () => 0.5,
  });
}

beforeEach(() => {
  now = HOUR_START + 60_000;
  store = new SqliteStateStore({
    path: ':memory:',
    clock: () => now,
    routeEvent: (event) =>
      subscribers.filter((s) => matchesFilter(s.filter, event) && !isDigested(s, event)).map((s) => s.id),
  });
});

afterEach(() => store.close());

describe('digests through the SQLite outbox', () => {
  it('holds digest types, sends the rest at once, and queues one digest once the hour ends', async () => {
    await logEvent('order.created');
    await logEvent('order.created');
    await logEvent('order.canceled');
    const office = new RecordingSender();
    const hook = new RecordingSender();
    await engine(office, hook).deliverDue();
    expect(office.sent).toEqual(['order.canceled']);
    expect(hook.sent.sort()).toEqual(['order.canceled', 'order.created', 'order.created']);

    expect((await tick()).queued).toEqual([]);
    now = HOUR_START + 3_600_000 + 1_000;
    const { queued } = await tick();
    expect(queued).toHaveLength(1);
    expect(queued[0]?.data.by_type).toEqual([{ name: 'order.created', count: 2 }]);

    const reports = await engine(office, hook).deliverDue();
    expect(reports.map((r) => `${r.subscriberId} ${r.eventType} ${r.state}`)).toEqual([
      'office digest.email delivered',
    ]);
    expect(office.digests.map((d) => d.id)).toEqual([queued[0]?.id]);
    // Digests are not events of the log's listings.
    expect((await store.listEvents(ORG)).map((e) => e.event.type)).not.toContain('digest.email');
  });

  it('refuses the same period again, as after a restart past the period end', async () => {
    await logEvent('order.created');
    now = HOUR_START + 3_600_000 + 1_000;
    expect((await tick()).queued).toHaveLength(1);
    now += 60_000;
    expect((await tick()).queued).toEqual([]);
    expect((await store.outbox.listDeliveries()).filter((d) => d.subscriberId === 'office')).toHaveLength(1);
  });

  it('retries a digest the mail server refused for now, under the same id', async () => {
    await logEvent('order.created');
    now = HOUR_START + 3_600_000 + 1_000;
    await tick();
    const office = new RecordingSender([{ kind: 'retry', reason: '451 try later' }]);
    const ofOffice = async () =>
      (await engine(office).deliverDue()).filter((r) => r.subscriberId === 'office');
    const [first] = await ofOffice();
    expect(first).toMatchObject({ eventType: 'digest.email', state: 'queued' });
    now = (first?.nextAttemptAt ?? now) + 1;
    const [second] = await ofOffice();
    expect(second).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(new Set(office.digests.map((d) => d.id)).size).toBe(1);
  });

  it('queues a 3,000-event digest as numbered parts, each an e-mail within 1 MB, delivered once each', async () => {
    const events = Array.from({ length: 3_000 }, () => makeEvent(ORG, newOrderUuid(), 'order.created'));
    await store.recordEvents(ORG, events);
    now = HOUR_START + 3_600_000 + 1_000;
    const { queued, failed } = await tick();
    expect(failed).toEqual([]);
    expect(queued.map((part) => part.data.part?.number)).toEqual([1, 2]);
    for (const part of queued) expect(EMAIL_DIGEST_LIMIT.sizeOf(part)).toBeLessThanOrEqual(1_000_000);
    expect(queued.flatMap((part) => part.data.events.map((entry) => entry.event_id))).toEqual(
      events.map((event) => event.id),
    );
    expect((await tick()).queued).toEqual([]);

    const office = new RecordingSender();
    const reports = (await engine(office).deliverDue()).filter((r) => r.subscriberId === 'office');
    expect(reports.map((r) => `${r.reference} ${r.state}`)).toEqual([
      'digest 11:00–12:00 part 1 of 2 delivered',
      'digest 11:00–12:00 part 2 of 2 delivered',
    ]);
    expect(office.digests.map((d) => d.id)).toEqual(queued.map((part) => part.id));
    // Computing, not waiting: 3,000 events recorded, read back, split and each part sized as an e-mail,
    // a few seconds of CPU. It took 49 s with a tenth of a core left to it on a loaded machine.
  }, 120_000);

  it('dead-letters a digest queued for a subscriber whose sender takes none', async () => {
    await logEvent('order.created');
    now = HOUR_START + 3_600_000 + 1_000;
    await tick();
    const plain: EventSender = { send: async () => ({ kind: 'delivered' }) };
    const reports = await new OutboxDelivery({
      outbox: store.outbox,
      senders: { senderFor: async () => plain },
      clock: () => now,
    }).deliverDue();
    expect(reports[0]).toMatchObject({
      state: 'dead',
      outcome: { reason: 'only e-mail subscribers take digests' },
    });
  });
});
