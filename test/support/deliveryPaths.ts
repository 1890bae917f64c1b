// The two ways an event is delivered, behind one interface for the delivery conformance suite: the local
// engine over a real SQLite outbox, and the SQS delivery handler's use case over a simulated queue per
// subscriber (visibility, receive counts, a dead-letter queue) with subscriber status in DynamoDB Local.
// Both build their senders with the real SubscriberSenders and send to real loopback receivers, each over
// its runtime's HTTP client (undici locally, Node's fetch on AWS); time is virtual, so a 5-minute retry
// costs nothing.

import type { SubscriberConfig } from '../../shared/config/configSchema.js';
import { EnvSecretResolver } from '../../shared/config/secretResolver.js';
import type { DeliverySubscriber } from '../../shared/contracts/deliveryQueueContract.js';
import { buildSender } from '../../shared/delivery/buildSender.js';
import type { EventSender } from '../../shared/delivery/deliveryOutcome.js';
import { defaultHighlightWords } from '../../shared/delivery/highlightWordsOf.js';
import { OutboxDelivery, type SenderSource } from '../../shared/delivery/outboxDelivery.js';
import { SlackPacer } from '../../shared/delivery/slack/slackPacer.js';
import type { DeadLetter } from '../../shared/delivery/sqs/deadLetters.js';
import { PausedCount } from '../../shared/delivery/sqs/pausedCount.js';
import { deliverSqsRecord, type SqsDeliveryDependencies } from '../../shared/delivery/sqs/sqsDelivery.js';
import { SubscriberSenders } from '../../shared/delivery/subscriberSenders.js';
import type { OrderEvent } from '../../shared/events/orderEvent.js';
import type { HttpClientFactory } from '../../shared/http/httpClient.js';
import { createUndiciHttpClient } from '../../shared/http/undiciHttpClient.js';
import { DynamoSubscriberStatus } from '../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { createLocalStateTable } from './dynamoLocal.js';
import { sqsEventRecord, withSubscriber } from './lambdaRecords.js';
import { makeSnapshot, T0 } from './stateStoreConformance.js';

export type DeliveryState = 'delivered' | 'queued' | 'dead' | 'subscriber_disabled';

export interface PathSetup {
  subscribers: SubscriberConfig[];
  /** Secret values by environment variable (Secrets Manager secret name on AWS). */
  secrets: Record<string, string>;
  /** Stands in for a sender of the subscriber: its real sender, or a failing one. */
  wrapSender?: (subscriberId: string, sender: EventSender) => EventSender;
  /** The next N writes that record a dead letter fail (SQLITE_BUSY; SQS refusing SendMessage). */
  failingDeadLetterWrites?: number;
  /** Every attempt's limit. @default 2 s */
  timeoutMs?: number;
}

export interface PathRun {
  /** Virtual time, epoch ms. */
  now: number;
  /** The event is recorded (local) or published (AWS): queued for every subscriber. */
  publish(event: OrderEvent): Promise<void>;
  /** Delivers everything due now, each subscriber on its own, until nothing is due. */
  deliverDue(): Promise<void>;
  state(subscriberId: string, eventId: string): Promise<{ state: DeliveryState; reason?: string }>;
  /** Passes virtual time. */
  advance(ms: number): void;
  warnings: string[];
  close(): Promise<void>;
}

export interface DeliveryPath {
  name: string;
  start(setup: PathSetup): Promise<PathRun>;
}

const ORG = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';

function senders(
  setup: PathSetup,
  warnings: string[],
  httpClient?: HttpClientFactory,
): SenderSource & { close(): Promise<void> } {
  const built = new SubscriberSenders({
    subscribers: setup.subscribers,
    secrets: new EnvSecretResolver(setup.secrets),
    tuning: {
      timeoutMs: setup.timeoutMs ?? 2_000,
      slackPacer: new SlackPacer(0),
      ...(httpClient ? { httpClient } : {}),
    },
    build: buildSender,
    highlightWords: defaultHighlightWords,
    onWarning: (message) => warnings.push(message),
  });
  return {
    senderFor: async (id) => {
      const sender = await built.senderFor(id);
      return sender && setup.wrapSender ? setup.wrapSender(id, sender) : sender;
    },
    close: () => built.close(),
  };
}

export const localPath: DeliveryPath = {
  name: 'local (SQLite outbox)',
  async start(setup) {
    const warnings: string[] = [];
    const run = { now: T0 } as PathRun;
    const store = new SqliteStateStore({
      path: ':memory:',
      clock: () => run.now,
      routeEvent: () => setup.subscribers.map((subscriber) => subscriber.id),
    });
    let failing = setup.failingDeadLetterWrites ?? 0;
    const markFailed = store.outbox.markFailed.bind(store.outbox);
    store.outbox.markFailed = async (subscriberId, eventId, failure) => {
      if (failure.dead && failing-- > 0) throw new Error('database is locked (SQLITE_BUSY)');
      return markFailed(subscriberId, eventId, failure);
    };
    const source = senders(setup, warnings, createUndiciHttpClient);
    const delivery = new OutboxDelivery({
      outbox: store.outbox,
      senders: source,
      clock: () => run.now,
      random: () => 0.5,
    });
    return Object.assign(run, {
      warnings,
      publish: async (event: OrderEvent) => {
        await store.commitChange(ORG, { snapshot: makeSnapshot(event.subject), events: [event] });
        delivery.wake();
      },
      deliverDue: async () => {
        await delivery.deliverDue();
      },
      state: async (subscriberId: string, eventId: string) => {
        const disabled = await store.outbox.disabled(subscriberId);
        const row = (await store.outbox.listDeliveries()).find(
          (delivery) => delivery.subscriberId === subscriberId && delivery.eventId === eventId,
        );
        // Nothing is queued for a disabled subscriber, and what was queued is dead with it.
        if (disabled && row?.status !== 'delivered') {
          return { state: 'subscriber_disabled' as const, reason: disabled.reason };
        }
        if (!row) throw new Error(`no delivery of ${eventId} to ${subscriberId}`);
        if (row.status === 'delivered') return { state: row.status };
        return { state: row.status, ...(row.lastError ? { reason: row.lastError } : {}) };
      },
      advance: (ms: number) => {
        run.now += ms;
      },
      close: async () => {
        await source.close();
        store.close();
      },
    });
  },
};

interface QueuedMessage {
  event: OrderEvent;
  receiveCount: number;
  visibleAt: number;
  settled?: { state: DeliveryState; reason?: string };
  /** Sent again by the handler (a paused subscriber): the copy is a new message, the received one deleted. */
  requeued?: boolean;
}

/** What SQS does with a message a handler threw for and did not hide: visible again after this. */
const QUEUE_VISIBILITY_TIMEOUT_MS = 6 * 60_000;

export const awsPath: DeliveryPath = {
  name: 'AWS (SQS handler)',
  async start(setup) {
    const warnings: string[] = [];
    const run = { now: T0 } as PathRun;
    const table = await createLocalStateTable();
    const queues = new Map<string, QueuedMessage[]>(setup.subscribers.map((s) => [s.id, []]));
    const messageOf = new Map<string, QueuedMessage>();
    let failing = setup.failingDeadLetterWrites ?? 0;
    const source = senders(setup, warnings);
    const status = new DynamoSubscriberStatus({
      client: table.client,
      tableName: table.tableName,
      clock: () => run.now,
    });
    const deps: SqsDeliveryDependencies<DeliverySubscriber> = {
      subscribers: setup.subscribers as DeliverySubscriber[],
      senders: source,
      status,
      queue: {
        changeVisibility: async (receiptHandle, seconds) => {
          const message = messageOf.get(receiptHandle);
          if (message) message.visibleAt = run.now + seconds * 1000;
        },
        deadLetter: async (_body, letter: DeadLetter) => {
          if (failing-- > 0) throw new Error('SQS refused SendMessage (ServiceUnavailable)');
          const message = [...(queues.get(letter.subscriberId ?? '') ?? [])].find(
            (m) => m.event.id === letter.eventId,
          );
          if (message) {
            message.settled = {
              state:
                letter.kind === 'gone' || letter.kind === 'subscriber_disabled'
                  ? 'subscriber_disabled'
                  : 'dead',
              reason: letter.reason,
            };
          }
        },
        send: async (messages) => {
          for (const sent of messages) {
            const message = queues
              .get(sent.subscriberId)
              ?.find((m) => m.event.id === (JSON.parse(sent.body) as { id: string }).id);
            if (!message) continue;
            Object.assign(message, {
              requeued: true,
              receiveCount: 0,
              visibleAt: run.now + (sent.delaySeconds ?? 0) * 1000,
            });
          }
        },
      },
      paused: new PausedCount(),
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      clock: () => run.now,
      random: () => 0.5,
    };
    const drainQueue = async (subscriberId: string) => {
      for (const message of queues.get(subscriberId) ?? []) {
        if (message.settled || message.visibleAt > run.now) continue;
        message.receiveCount += 1;
        // In flight, and after a throw the handler did not follow with a new visibility: hidden for the
        // queue's visibility timeout, as SQS does.
        message.visibleAt = run.now + QUEUE_VISIBILITY_TIMEOUT_MS;
        // Each subscriber's message as the split leaves it on the channel's queue: named by its attribute.
        const record = withSubscriber(
          sqsEventRecord(message.event, `${subscriberId}-queue`, message.receiveCount),
          subscriberId,
        );
        messageOf.set(record.receiptHandle, message);
        try {
          await deliverSqsRecord(record, deps);
          if (message.requeued) message.requeued = false;
          else message.settled ??= { state: 'delivered' };
        } catch {
          // Left on the queue.
        }
      }
    };
    return Object.assign(run, {
      warnings,
      publish: async (event: OrderEvent) => {
        for (const queue of queues.values()) queue.push({ event, receiveCount: 0, visibleAt: run.now });
      },
      // One function per queue, as Lambda polls each subscriber's queue on its own.
      deliverDue: async () => {
        await Promise.all([...queues.keys()].map(drainQueue));
      },
      state: async (subscriberId: string, eventId: string) => {
        const message = queues.get(subscriberId)?.find((m) => m.event.id === eventId);
        if (!message) throw new Error(`no message of ${eventId} for ${subscriberId}`);
        return message.settled ?? { state: 'queued' as const };
      },
      advance: (ms: number) => {
        run.now += ms;
      },
      close: async () => {
        await source.close();
        await table.drop();
      },
    });
  },
};
