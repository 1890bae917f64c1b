// A webhook whose receiver does not answer the first attempt in time is delivered on a later attempt
// under the same id: the real sender against a real loopback receiver, the real SQLite outbox.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverUntilSettled } from '../../../shared/delivery/deliverUntilSettled.js';
import { OutboxDelivery } from '../../../shared/delivery/outboxDelivery.js';
import { WebhookSender } from '../../../shared/delivery/webhook/webhookSender.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { makeEvent, makeSnapshot, newOrderUuid, T0 } from '../../support/stateStoreConformance.js';
import {
  makeWebhookSecret,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhookReceiver.js';

const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';
const secret = makeWebhookSecret();
let receiver: WebhookReceiver;
let store: SqliteStateStore;
let sender: WebhookSender;

beforeEach(async () => {
  // The first request is never answered; later ones are.
  receiver = await startWebhookReceiver({
    secrets: [secret],
    respond: (_request, res, hit) => {
      if (hit > 1) res.writeHead(204).end();
    },
  });
  store = new SqliteStateStore({ path: ':memory:', clock: () => T0, routeEvent: () => ['automation'] });
  sender = new WebhookSender({
    subscriberId: 'automation',
    url: receiver.url,
    secrets: [secret],
    includeContactDetails: false,
    timeoutMs: 300,
  });
});

afterEach(async () => {
  await sender.close();
  await receiver.close();
  store.close();
});

describe('a webhook that times out', () => {
  it('is retried on the schedule and delivered under the same webhook-id', async () => {
    const snapshot = makeSnapshot(newOrderUuid());
    const event = makeEvent(ORG, snapshot.orderUuid, 'order.created');
    await store.commitChange(ORG, { snapshot, events: [event] });
    let now = T0;
    const reports = await deliverUntilSettled({
      delivery: new OutboxDelivery({
        outbox: store.outbox,
        senders: { senderFor: async () => sender },
        clock: () => now,
        random: () => 0.5,
      }),
      clock: () => now,
      windowMs: 30_000,
      sleep: async (ms) => {
        now += ms;
      },
    });
    expect(reports.map((report) => report.state)).toEqual(['queued', 'delivered']);
    expect(reports[0]?.outcome).toMatchObject({ kind: 'retry' });
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(receiver.received.every((request) => request.verifiedBy[0])).toBe(true);
  });
});
