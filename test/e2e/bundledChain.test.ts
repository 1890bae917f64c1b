// The chain as shipped: the function bundles from `cdk synth`, each run in a fresh Node process with the
// environment the synthesized template gives it, carry order changes from the Admin API simulator to a
// webhook receiver and a Slack endpoint. The poller runs against DynamoDB Local (first from the schedule's
// input, then from the tick it queued); the stream records read back from DynamoDB Local, through the
// publisher's filter criteria, go to the publisher; what it publishes is fanned out by the template's
// subscription filter policies, one per channel; each raw SQS body goes to the delivery function of its
// queue, which splits it into one copy per subscriber back on that queue, then delivers each copy; and the
// receivers verify what arrives (signatures with `standardwebhooks`). Secrets Manager, SNS and SQS are a
// loopback fake of just the calls the functions make. Set NOTIFIER_E2E_NODE to run the bundles on
// another Node binary (Lambda runs Node 24).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Establishment } from '../../shared/api/schemas.js';
import { channelOutputKeys, STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import { type CatchUpEvent, isCatchUp } from '../../shared/events/catchUpEvent.js';
import { establishmentsOf, isOrderEvent, type NotifierEvent } from '../../shared/events/notifierEvent.js';
import type { OrderEvent } from '../../shared/events/orderEvent.js';
import { DynamoStateStore } from '../../shared/store/dynamo/dynamoStateStore.js';
import { type SlackWebApiStandIn, startSlackWebApi } from '../../simulator/inbox/slackWebApiServer.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { functionLogicalId, notifierApp } from '../infra/support/notifierApp.js';
import type { BundledRun } from '../support/bundledHandler.js';
import { createLocalStateTable, type LocalTable } from '../support/dynamoLocal.js';
import { readStreamRecords } from '../support/dynamoLocalStream.js';
import {
  type FakeAwsServices,
  type PublishedMessage,
  type SentSqsMessage,
  startFakeAwsServices,
} from '../support/fakeAwsServices.js';
import { type GateProxy, startGateProxy } from '../support/gateProxy.js';
import { passesFilterCriteria } from '../support/lambdaFilterPattern.js';
import { sqsRecord } from '../support/lambdaRecords.js';
import {
  ACCOUNT,
  invokeLocalFunction,
  type LocalFunction,
  LocalWiring,
  lambdaEnvironment,
  REGION,
} from '../support/localWiring.js';
import { runCliInProcess } from '../support/runCliInProcess.js';
import { type SlackReceiver, startSlackReceiver } from '../support/slackReceiver.js';
import { snsPolicyMatches } from '../support/snsPolicyEvaluator.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const NODE = process.env.NOTIFIER_E2E_NODE ?? process.execPath;

let sim: RunningSimulator;
let aws: FakeAwsServices;
let table: LocalTable;
let webhook: WebhookReceiver;
let slack: SlackReceiver;
let outdir: string;
let wiring: LocalWiring;
let kitchen: Establishment;
let office: Establishment;
const hookSecret = makeWebhookSecret();
const partnerSecret = makeWebhookSecret();
/** The partner's receiver: down. It holds each request until the test answers it. */
let partner: WebhookReceiver;
const partnerHeld: { res: ServerResponse; closed: boolean }[] = [];
let partnerArrived: (() => void) | undefined;
/** The status the partner's receiver answers at once; undefined: it holds the request. */
let partnerStatus: number | undefined;
/** Called when the live webhook receiver gets a request; and the status it answers. */
let automationArrived: (() => void) | undefined;
let automationStatus = 204;
let config: Record<string, unknown>;
let webhookDeliveryId: string;
/** The Slack Web API stand-in the board subscriber posts to, behind a gate the test opens and shuts. */
let slackApi: SlackWebApiStandIn;
let slackGate: GateProxy;
let boardPlace: Establishment;
let slackDeliveryId: string;
/** A secret the receiver also knows but the notifier never had: it must not verify anything. */
const unrelatedSecret = makeWebhookSecret();
/** Every function run, for the checks on their logs. */
const runs: { name: string; run: BundledRun }[] = [];

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, scenario: false, initialOrders: 30 });
  aws = await startFakeAwsServices();
  table = await createLocalStateTable();
  webhook = await startWebhookReceiver({
    secrets: [hookSecret, unrelatedSecret],
    respond: (_request, res) => {
      res.writeHead(automationStatus).end();
      automationArrived?.();
    },
  });
  partner = await startWebhookReceiver({
    secrets: [partnerSecret],
    respond: (_request, res) => {
      if (partnerStatus !== undefined) {
        res.writeHead(partnerStatus).end();
        return;
      }
      const held = { res, closed: false };
      res.on('close', () => {
        held.closed = true;
      });
      partnerHeld.push(held);
      partnerArrived?.();
    },
  });
  slack = await startSlackReceiver();
  outdir = await mkdtemp(join(tmpdir(), 'bundled-chain-'));
  const [first, second, third] = sim.world.establishments();
  if (!first || !second || !third) throw new Error('the simulator has at least three establishments');
  [kitchen, office, boardPlace] = [first, second, third];
  slackApi = await startSlackWebApi({ rateLimits: false });
  slackGate = await startGateProxy(slackApi.apiUrl);

  config = {
    api: { baseUrl: sim.baseUrl, requestsPerMinute: 50 },
    organizations: [
      {
        id: sim.organization.id,
        name: 'North School',
        token: { env: 'NORTH_SCHOOL_TOKEN' },
        timeZone: sim.world.timeZone,
      },
    ],
    subscribers: [
      {
        id: 'automation',
        type: 'webhook',
        url: webhook.url,
        secret: { env: 'AUTOMATION_WEBHOOK_SECRET' },
        filter: { types: ['order.created', 'order.completed'] },
      },
      // A second webhook subscriber, whose receiver is down; it takes completions only.
      {
        id: 'partner',
        type: 'webhook',
        url: partner.url,
        secret: { env: 'PARTNER_WEBHOOK_SECRET' },
        filter: { types: ['order.completed'] },
      },
      {
        id: 'kitchen',
        type: 'slack',
        webhookUrl: { env: 'KITCHEN_SLACK_URL' },
        filter: { establishments: [kitchen.uuid] },
      },
      // A Slack app subscriber: the board of a third establishment, kept on DynamoDB.
      {
        id: 'board',
        type: 'slack',
        botToken: { env: 'BOARD_SLACK_BOT_TOKEN' },
        channel: slackApi.channel,
        apiUrl: slackGate.baseUrl,
        filter: { establishments: [boardPlace.uuid] },
      },
    ],
  };
  // Bundled for real: the config (with the simulator's address) is compiled into the bundles.
  const { template } = notifierApp(config, { bundle: true, outdir });
  webhookDeliveryId = functionLogicalId(template, 'webhook-delivery');
  slackDeliveryId = functionLogicalId(template, 'slack-delivery');
  const stream = await readStreamRecords(table.client, inject('dynamoEndpoint'), table.tableName);
  expect(stream).toEqual([]);
  wiring = new LocalWiring(template, outdir, {
    tableName: table.tableName,
    streamArn: await latestStreamArn(),
    queueUrl: (logicalId) => aws.queueUrl(ACCOUNT, logicalId),
  });

  // The secrets the stack creates, under the names the functions' SECRETS_PREFIX gives them.
  const prefix = wiring.function(functionLogicalId(template, 'poller')).environment.SECRETS_PREFIX;
  const values: Record<string, string> = {
    // Every organization's token in one secret, every subscriber's secret in another: each a JSON object
    // by reference name, as put-secrets writes them.
    'organization-tokens': JSON.stringify({ NORTH_SCHOOL_TOKEN: sim.token }),
    'subscriber-secrets': JSON.stringify({
      AUTOMATION_WEBHOOK_SECRET: hookSecret,
      PARTNER_WEBHOOK_SECRET: partnerSecret,
      BOARD_SLACK_BOT_TOKEN: slackApi.token,
      KITCHEN_SLACK_URL: slack.webhookUrl('kitchen'),
    }),
  };
  for (const [name, value] of Object.entries(values)) aws.secrets.set(`${prefix}${name}`, value);
  expect([...aws.secrets.keys()].sort()).toEqual(wiring.secretNames().sort());
}, 120_000);

afterAll(async () => {
  for (const held of partnerHeld) held.res.destroy();
  await Promise.all([
    sim?.close(),
    aws?.close(),
    table?.drop(),
    webhook?.close(),
    partner?.close(),
    slack?.close(),
    slackGate?.close(),
    slackApi?.close(),
  ]);
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

async function latestStreamArn(): Promise<string> {
  const described = await table.client.send(new DescribeTableCommand({ TableName: table.tableName }));
  const arn = described.Table?.LatestStreamArn;
  if (!arn) throw new Error('the local state table has no stream');
  return arn;
}

/** What Lambda gives the function, pointed at this run's loopback services. */
function environmentOf(fn: LocalFunction): Record<string, string> {
  return lambdaEnvironment(fn, {
    scratch: outdir,
    dynamoEndpoint: inject('dynamoEndpoint'),
    endpointEnvironment: aws.endpointEnvironment,
  });
}

/** Runs one invocation of the function's bundle and returns what its handler answered. */
async function invoke(functionId: string, event: unknown): Promise<unknown> {
  const fn = wiring.function(functionId);
  const run = await invokeLocalFunction(fn, { env: environmentOf(fn), event, node: NODE });
  runs.push({ name: functionId, run });
  if (run.answer?.ok !== true) {
    throw new Error(
      `${functionId} failed (exit ${run.exitCode}): ${JSON.stringify(run.answer)}\n${run.stderr}\n${run.stdout}`,
    );
  }
  return run.answer.result;
}

/** Invokes a function with a batch and expects no record of it to fail, else names what its log said. */
async function invokeBatch(functionId: string, event: { Records: unknown[] }): Promise<void> {
  const result = await invoke(functionId, event);
  const run = runs.at(-1)?.run as BundledRun;
  const complaints = logLines(run)
    .filter((line) => line.level === 'ERROR' || line.level === 'WARN')
    .map((line) => JSON.stringify(line));
  expect(result, `${functionId} failed records; it logged ${complaints.join('\n')}`).toEqual({
    batchItemFailures: [],
  });
}

/** The body SNS puts on an SQS queue for `message` under raw delivery. */
function rawSqsBody(message: PublishedMessage): string {
  if (message.messageStructure !== 'json') return message.message;
  const bodies = JSON.parse(message.message) as Record<string, string>;
  const body = bodies.sqs ?? bodies.default;
  if (body === undefined) throw new Error('a json-structured message without a default body');
  return body;
}

/** The SQS record Lambda hands the delivery function for a raw-delivered SNS message. */
function queueRecord(queueArn: string, message: PublishedMessage): SQSRecord {
  return {
    ...sqsRecord({ body: rawSqsBody(message), queue: 'unused' }),
    eventSourceARN: queueArn,
    awsRegion: REGION,
    // Raw delivery carries the SNS attributes as SQS message attributes.
    messageAttributes: Object.fromEntries(
      Object.entries(message.attributes).map(([name, value]) => [
        name,
        {
          dataType: value.DataType ?? 'String',
          stringValue: value.StringValue ?? '',
          stringListValues: [],
          binaryListValues: [],
        },
      ]),
    ),
  };
}

/** The SQS record Lambda hands the function for a message a function put on its queue (SendMessageBatch). */
function sentRecord(queueArn: string, message: SentSqsMessage): SQSRecord {
  const attributes = message.attributes as Record<string, { DataType?: string; StringValue?: string }>;
  return {
    ...sqsRecord({ body: message.body, queue: 'unused' }),
    eventSourceARN: queueArn,
    awsRegion: REGION,
    messageAttributes: Object.fromEntries(
      Object.entries(attributes).map(([name, value]) => [
        name,
        {
          dataType: value.DataType ?? 'String',
          stringValue: value.StringValue ?? '',
          stringListValues: [],
          binaryListValues: [],
        },
      ]),
    ),
  };
}

/**
 * A channel's queue as SQS and Lambda run it: the intake messages (what SNS delivered) to the function,
 * which splits them into one copy per subscriber back on the same queue; then those copies, as SQS hands
 * them out, to the function again. Returns the copies.
 */
async function throughChannel(
  queueArn: string,
  intake: readonly PublishedMessage[],
): Promise<SentSqsMessage[]> {
  const mapping = wiring.mappingOf(queueArn);
  const queueUrl = wiring.function(mapping.functionId).environment.DELIVERY_QUEUE_URL;
  const sentBefore = aws.sent.length;
  for (const batch of chunks(intake, mapping.batchSize)) {
    await invokeBatch(mapping.functionId, {
      Records: batch.map((message) => queueRecord(queueArn, message)),
    });
  }
  const copies = aws.sent.slice(sentBefore).filter((message) => message.queueUrl === queueUrl);
  expect(copies).toHaveLength(aws.sent.length - sentBefore);
  for (const batch of chunks(copies, mapping.batchSize)) {
    await invokeBatch(mapping.functionId, { Records: batch.map((message) => sentRecord(queueArn, message)) });
  }
  return copies;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

/**
 * One cycle of the chain after the world moved: the watchdog restarts the organization's chain (its cycle
 * made due two minutes ago), the poller's cycle from the tick, and the stream's new event inserts through
 * the publisher. Returns what was published.
 */
async function pollAndPublish(): Promise<PublishedMessage[]> {
  const [schedule] = wiring.schedules();
  if (!schedule) throw new Error('the template has no watchdog schedule');
  const store = new DynamoStateStore({ client: table.client, tableName: table.tableName });
  const state = await store.loadPollState(sim.organization.id);
  if (!state) throw new Error('no poll state');
  await store.savePollState({ ...state, pace: { ...state.pace, nextPollAt: Date.now() - 120_000 } });
  const publishedBefore = aws.published.length;
  const sentBefore = aws.sent.length;
  expect(await invoke(schedule.functionId, schedule.input)).toMatchObject({ restarted: 1 });
  const restart = aws.sent[sentBefore];
  const tickQueueArn = wiring.queueArnOfUrl(restart?.queueUrl ?? '');
  await invokeBatch(wiring.mappingOf(tickQueueArn).functionId, {
    Records: [{ ...sqsRecord({ body: restart?.body ?? '', queue: 'unused' }), eventSourceARN: tickQueueArn }],
  });
  const publisherMapping = wiring.mappingOf(await latestStreamArn());
  // Only the event topic's messages: the watchdog's notices go to the alarm topic.
  const topicArn = wiring.function(publisherMapping.functionId).environment.TOPIC_ARN;
  const publishedIds = new Set(
    aws.published
      .filter((message) => message.topicArn === topicArn)
      .map((message) => (JSON.parse(rawSqsBody(message)) as { id: string }).id),
  );
  const records = (await readStreamRecords(table.client, inject('dynamoEndpoint'), table.tableName))
    .filter((record) => passesFilterCriteria(publisherMapping.filterCriteria, record))
    .filter((record) => !publishedIds.has(record.dynamodb?.NewImage?.eventId?.S ?? ''));
  for (const batch of chunks(records, publisherMapping.batchSize)) {
    await invokeBatch(publisherMapping.functionId, { Records: batch });
  }
  return aws.published.slice(publishedBefore).filter((message) => message.topicArn === topicArn);
}

function webhookFunctionId(): string {
  return webhookDeliveryId;
}

function logLines(run: BundledRun): Record<string, unknown>[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the bundled functions, wired as the template wires them', () => {
  it('carry order changes from the Admin API to exactly the webhook and Slack subscribers whose filters match', async () => {
    const [schedule, ...otherSchedules] = wiring.schedules();
    if (!schedule) throw new Error('the template has no watchdog schedule');
    expect(otherSchedules).toEqual([]);

    // 1. The watchdog's minute: the organization was never polled, so it starts its chain with a tick due
    // now, which the tick queue gives the poller; the first cycle takes the world as it is, announcing nothing.
    const today = sim.world.today();
    const toCancel = sim.world.addOrder({
      pickupDate: today,
      establishment: kitchen.uuid,
      createdAtMs: Date.now() - 60_000,
    });
    expect(await invoke(schedule.functionId, schedule.input)).toMatchObject({
      checked: 1,
      restarted: 1,
      overdue: [sim.organization.id],
    });
    // The alarm's notification cannot name the organization: the watchdog's notice to the alarm topic does.
    const watchdog = wiring.function(schedule.functionId);
    const [notice, ...moreNotices] = aws.published.splice(0);
    expect(moreNotices).toEqual([]);
    expect(notice).toMatchObject({
      topicArn: watchdog.environment.ALARM_TOPIC_ARN,
      subject: 'meal-order-notifier: 1 organization not polled',
    });
    expect(notice?.message).toContain(`${sim.organization.name}: never polled`);
    const [restart, ...notYet] = aws.sent;
    expect(notYet).toEqual([]);
    expect(restart).toMatchObject({ delaySeconds: 0 });
    const tickQueueArn = wiring.queueArnOfUrl(restart?.queueUrl ?? '');
    const tickMapping = wiring.mappingOf(tickQueueArn);
    const pollerId = tickMapping.functionId;
    const poller = wiring.function(pollerId);
    expect(restart?.queueUrl).toBe(poller.environment.TICK_QUEUE_URL);
    const tickOf = (body: string) => ({
      ...sqsRecord({ body, queue: 'unused' }),
      eventSourceARN: tickQueueArn,
    });
    await invokeBatch(pollerId, { Records: [tickOf(restart?.body ?? '')] });
    const firstCycle = logLines(runs.at(-1)?.run as BundledRun).find((line) => line.message === 'poll cycle');
    expect(firstCycle).toMatchObject({
      organization: sim.organization.id,
      trigger: 'tick',
      outcome: 'polled',
      ok: true,
      events: 0,
    });
    // It queued the tick of its next cycle, delayed until that cycle is due.
    const [, tick, ...moreTicks] = aws.sent;
    expect(moreTicks).toEqual([]);
    expect(tick?.queueUrl).toBe(poller.environment.TICK_QUEUE_URL);
    expect(tick?.delaySeconds).toBeGreaterThan(0);

    // 2. The world moves: a new order at each establishment, a kitchen order canceled.
    const atKitchen = sim.world.addOrder({ pickupDate: today, establishment: kitchen.uuid });
    const atOffice = sim.world.addOrder({ pickupDate: today, establishment: office.uuid });
    const canceled = sim.world.setStatus(toCancel.uuid, 'canceled');

    // 3. The tick arrives from the tick queue once its delay has passed (the due time is moved, not waited).
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName });
    const state = await store.loadPollState(sim.organization.id);
    if (!state) throw new Error('the first cycle saved no poll state');
    await store.savePollState({ ...state, pace: { ...state.pace, nextPollAt: Date.now() } });
    await invokeBatch(pollerId, { Records: [tickOf(tick?.body ?? '')] });
    const cycle = logLines(runs.at(-1)?.run as BundledRun).find((line) => line.message === 'poll cycle');
    expect(cycle).toMatchObject({ trigger: 'tick', ok: true, events: 3 });

    // 4. The stream, through the publisher mapping's filter, to the publisher.
    const streamArn = await latestStreamArn();
    const publisherMapping = wiring.mappingOf(streamArn);
    const records = await readStreamRecords(table.client, inject('dynamoEndpoint'), table.tableName);
    const passed = records.filter((record) => passesFilterCriteria(publisherMapping.filterCriteria, record));
    // Snapshots, poll state, lease and budget writes stay behind; only the three event inserts pass.
    expect(records.length).toBeGreaterThan(passed.length);
    expect(records.map((record: DynamoDBRecord) => record.dynamodb?.NewImage?.kind?.S)).toContain('lease');
    expect(passed.map((record: DynamoDBRecord) => record.dynamodb?.NewImage?.kind?.S)).toEqual([
      'event',
      'event',
      'event',
    ]);
    for (const batch of chunks(passed, publisherMapping.batchSize)) {
      await invokeBatch(publisherMapping.functionId, { Records: batch });
    }
    const topicArn = wiring.function(publisherMapping.functionId).environment.TOPIC_ARN;
    expect(aws.published.map((message) => message.topicArn)).toEqual([topicArn, topicArn, topicArn]);
    const published = aws.published.map((message) => JSON.parse(rawSqsBody(message)) as OrderEvent);
    const idOf = (type: string, subject: string) => {
      const event = published.find((candidate) => candidate.type === type && candidate.subject === subject);
      if (!event) throw new Error(`no ${type} event for ${subject} was published`);
      return event.id;
    };
    expect(published.map((event) => `${event.type} ${event.subject}`).sort()).toEqual(
      [
        `order.created ${atKitchen.uuid}`,
        `order.created ${atOffice.uuid}`,
        `order.canceled ${canceled.uuid}`,
      ].sort(),
    );

    // 5. SNS: each channel's one subscription's filter policy, as the template holds it, against the
    // attributes; each match's raw body onto that queue, to the function mapped to it, which splits it into
    // one copy per subscriber its filter takes, in that subscriber's message group, then delivers the copies.
    const subscriptions = wiring.sqsSubscriptions();
    expect(subscriptions).toHaveLength(2);
    const copies: SentSqsMessage[] = [];
    for (const subscription of subscriptions) {
      expect(subscription).toMatchObject({ topicArn, rawMessageDelivery: true });
      expect(subscription.filterPolicy).toBeDefined();
      const matching = aws.published.filter((message) =>
        snsPolicyMatches(subscription.filterPolicy, message.attributes),
      );
      copies.push(...(await throughChannel(subscription.queueArn, matching)));
    }
    // Two created events for the webhook, the kitchen's two for Slack: each in its subscriber's group.
    expect(copies.map((copy) => copy.messageGroupId).sort()).toEqual(
      ['automation', 'automation', 'kitchen', 'kitchen'].sort(),
    );
    for (const copy of copies) {
      expect((copy.attributes.subscriber as { StringValue: string }).StringValue).toBe(copy.messageGroupId);
    }

    // 6. The webhook receiver got the two created events, each signed with the subscriber's secret only.
    expect(webhook.received.map((request) => request.headers['webhook-id']).sort()).toEqual(
      [idOf('order.created', atKitchen.uuid), idOf('order.created', atOffice.uuid)].sort(),
    );
    for (const request of webhook.received) {
      expect(request.verifiedBy).toEqual([true, false]);
      const body = JSON.parse(request.body) as OrderEvent;
      expect(body.id).toBe(request.headers['webhook-id']);
      expect(body.type).toBe('order.created');
    }

    // 7. Slack got the kitchen's two orders, created and canceled, and nothing of the office's.
    const slackTexts = slack.received.map((message) => JSON.stringify(message.payload));
    expect(slack.received.map((message) => slack.webhookUrl('kitchen').endsWith(message.path))).toEqual([
      true,
      true,
    ]);
    expect(slackTexts.filter((text) => text.includes(atKitchen.reference))).toHaveLength(1);
    expect(slackTexts.filter((text) => text.includes(canceled.reference))).toHaveLength(1);
    expect(slackTexts.some((text) => text.includes(atOffice.reference))).toBe(false);

    // Nothing was retried, dead-lettered or refused, and no function logged an error: besides the ticks,
    // only the split copies were sent.
    expect(aws.sent.filter((message) => message.queueUrl !== tick?.queueUrl)).toEqual(copies);
    expect(aws.visibilityChanges).toEqual([]);
    expect(aws.refused).toEqual([]);
    // Each secret of a subscriber something was delivered to (the partner had nothing yet), read when first needed.
    expect(new Set(aws.secretsRead)).toEqual(
      new Set(
        [...aws.secrets.keys()].filter(
          (name) => !name.endsWith('PARTNER_WEBHOOK_SECRET') && !name.endsWith('BOARD_SLACK_BOT_TOKEN'),
        ),
      ),
    );
    for (const { name, run } of runs) {
      const errors = logLines(run).filter((line) => line.level === 'ERROR' || line.level === 'WARN');
      expect(errors, name).toEqual([]);
    }
  }, 60_000);

  // Calm after an outage (issue 22), as far as the chain goes on AWS: the poller did not run for half an
  // hour while the world moved. Its next cycle records the changes, stale by the API's own timestamps, and a
  // catch-up of them; the publisher marks them apart (`audience`), and the templates' filter policies give
  // the Slack channel the catch-up instead of the stale posts and the webhook every event.
  it('give a Slack channel one catch-up instead of the stale events after a gap, and the webhook every event', async () => {
    const [schedule] = wiring.schedules();
    if (!schedule) throw new Error('the template has no watchdog schedule');
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName });
    const publishedBefore = aws.published.length;
    const slackBefore = slack.received.length;
    const webhookBefore = webhook.received.length;
    const runsBefore = runs.length;
    const MINUTE = 60_000;
    const now = Date.now();

    // 1. Half an hour without a cycle, while the world moved: new orders (one with an allergy) at both
    // establishments, and a kitchen order the poller knew canceled; then one order just now.
    const today = sim.world.today();
    const snapshots = await store.loadSnapshots(sim.organization.id);
    const known = sim.world
      .listOrders((order) => order.status.value === 'pending' && order.establishment.uuid === kitchen.uuid)
      .find((order) => order.pickup_at === today && snapshots.get(order.uuid)?.status === 'pending');
    if (!known) throw new Error('the poller knows no pending kitchen order for today');
    const stale = [
      sim.world.addOrder({ pickupDate: today, establishment: kitchen.uuid, createdAtMs: now - 30 * MINUTE }),
      sim.world.addOrder({
        pickupDate: today,
        establishment: kitchen.uuid,
        createdAtMs: now - 28 * MINUTE,
        notes: 'Peanut allergy',
      }),
      sim.world.addOrder({ pickupDate: today, establishment: office.uuid, createdAtMs: now - 27 * MINUTE }),
    ];
    sim.world.setStatus(known.uuid, 'canceled', { atMs: now - 20 * MINUTE });
    const fresh = sim.world.addOrder({ pickupDate: today, establishment: kitchen.uuid });
    const state = await store.loadPollState(sim.organization.id);
    if (!state) throw new Error('no poll state');
    await store.savePollState({
      ...state,
      // The chain lost: its cycle was due two minutes ago and did not run.
      pace: { ...state.pace, nextPollAt: now - 2 * MINUTE },
      health: { ...state.health, lastSuccessAt: now - 45 * MINUTE },
    });

    // 2. The cycle after the gap: the watchdog finds the chain lost and restarts it with a tick, whose cycle
    // records five events and a catch-up of four.
    const sentBefore = aws.sent.length;
    expect(await invoke(schedule.functionId, schedule.input)).toMatchObject({ restarted: 1 });
    const restart = aws.sent[sentBefore];
    const tickQueueArn = wiring.queueArnOfUrl(restart?.queueUrl ?? '');
    await invokeBatch(wiring.mappingOf(tickQueueArn).functionId, {
      Records: [
        { ...sqsRecord({ body: restart?.body ?? '', queue: 'unused' }), eventSourceARN: tickQueueArn },
      ],
    });
    const cycle = logLines(runs.at(-1)?.run as BundledRun).find((line) => line.message === 'poll cycle');
    expect(cycle).toMatchObject({ outcome: 'polled', ok: true });

    // 3. The stream's new event inserts to the publisher.
    const streamArn = await latestStreamArn();
    const publisherMapping = wiring.mappingOf(streamArn);
    const publishedIds = new Set(
      aws.published.map((message) => (JSON.parse(rawSqsBody(message)) as { id: string }).id),
    );
    const records = (await readStreamRecords(table.client, inject('dynamoEndpoint'), table.tableName))
      .filter((record) => passesFilterCriteria(publisherMapping.filterCriteria, record))
      .filter((record) => !publishedIds.has(record.dynamodb?.NewImage?.eventId?.S ?? ''));
    for (const batch of chunks(records, publisherMapping.batchSize)) {
      await invokeBatch(publisherMapping.functionId, { Records: batch });
    }
    const messages = aws.published.slice(publishedBefore);
    const events = messages.map((message) => JSON.parse(rawSqsBody(message)) as NotifierEvent);
    const catchUps = events.filter(isCatchUp);
    const orderEvents = events.filter(isOrderEvent);
    expect(catchUps).toHaveLength(1);
    const [catchUp] = catchUps as [CatchUpEvent];
    const freshEvent = orderEvents.find((event) => event.subject === fresh.uuid);
    const staleEvents = orderEvents.filter((event) => event !== freshEvent);
    expect(staleEvents.map((event) => `${event.type} ${event.subject}`).sort()).toEqual(
      [...stale.map((order) => `order.created ${order.uuid}`), `order.canceled ${known.uuid}`].sort(),
    );
    expect(catchUp.data).toMatchObject({ catch_up_after: 900, events: 4, found_late: 4 });
    expect([...catchUp.data.event_ids].sort()).toEqual(staleEvents.map((event) => event.id).sort());
    // Since the last successful cycle, to the second, in the organization's zone.
    expect(Date.parse(catchUp.data.unpolled?.from ?? '')).toBe(Math.floor((now - 45 * MINUTE) / 1000) * 1000);
    expect(catchUp.data.notes.map((line) => line.reference)).toEqual([stale[1]?.reference]);
    // What the filter policies read: the stale events are for every-event subscriptions alone.
    const audienceOf = (event: NotifierEvent) =>
      messages[events.indexOf(event)]?.attributes.audience?.StringValue ?? '';
    expect(audienceOf(catchUp)).toBe('catch-up-after-900s');
    for (const event of staleEvents) expect(audienceOf(event)).toBe('every-event');
    expect(JSON.parse(audienceOf(freshEvent as NotifierEvent))).toEqual([
      'every-event',
      'catch-up-after-900s',
    ]);

    // 4. The fan-out by the template's filter policies, to the delivery functions, split there by
    // subscriber (routeEvent: the filters and the audience).
    for (const subscription of wiring.sqsSubscriptions()) {
      const matching = messages.filter((message) =>
        snsPolicyMatches(subscription.filterPolicy, message.attributes),
      );
      await throughChannel(subscription.queueArn, matching);
    }

    // 5. The webhook (new orders): every order.created, stale or not, each once; never the catch-up.
    const hooked = webhook.received
      .slice(webhookBefore)
      .map((request) => String(request.headers['webhook-id']));
    const created = orderEvents.filter((event) => event.type === 'order.created').map((event) => event.id);
    expect(hooked.sort()).toEqual([...created].sort());
    expect(hooked).not.toContain(catchUp.id);

    // 6. Slack (the kitchen): the catch-up and the fresh order, and no stale post.
    const posts = slack.received.slice(slackBefore).map((message) => JSON.stringify(message.payload));
    expect(posts).toHaveLength(2);
    expect(posts.filter((text) => text.includes('⏪ Catch-up: 4 changes at North School'))).toHaveLength(1);
    expect(posts.filter((text) => text.includes(`New order ${fresh.reference}`))).toHaveLength(1);
    expect(posts.filter((text) => text.includes('Peanut allergy'))).toHaveLength(1);

    // 7. No event id lost or twice for the kitchen: each event its filter takes reached it once, by itself
    // or in the catch-up.
    const forKitchen = orderEvents.filter((event) =>
      establishmentsOf(event).some((uuid) => uuid.toLowerCase() === kitchen.uuid.toLowerCase()),
    );
    expect(forKitchen).toHaveLength(4);
    for (const event of forKitchen) {
      const inCatchUp = catchUp.data.event_ids.includes(event.id);
      const posted = posts.some(
        (text) => text.includes(`${event.data.order.reference}`) && !text.includes('Catch-up'),
      );
      expect(Number(inCatchUp) + Number(posted), `${event.type} ${event.data.order.reference}`).toBe(1);
    }
    for (const { name, run } of runs.slice(runsBefore)) {
      const errors = logLines(run).filter(
        (line) =>
          (line.level === 'ERROR' || line.level === 'WARN') &&
          // The watchdog's run before the cycle rightly found the organization overdue after the gap.
          line.message !== 'organization overdue',
      );
      expect(errors, name).toEqual([]);
    }
  }, 60_000);
  // Issue 32: per-subscriber queues gave each subscriber its own pace and its own dead letters; one queue
  // per channel keeps both. The webhook channel's two subscribers get the same completion; the partner's
  // receiver is down (it holds the request, then answers 503), and the automation's is delivered meanwhile,
  // in the same invocation. Each one's dead letters are then listed and replayed on their own by the CLI,
  // against the channel's shared dead-letter queue.
  it("deliver to a live webhook while another's receiver is down, and keep and replay each one's dead letters apart", async () => {
    // 1. An order the poller knows is completed; the chain records and publishes it.
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName });
    const snapshots = await store.loadSnapshots(sim.organization.id);
    const known = sim.world
      .listOrders(
        (order) => order.status.value === 'pending' && snapshots.get(order.uuid)?.status === 'pending',
      )
      .at(0);
    if (!known) throw new Error('the poller knows no pending order');
    sim.world.setStatus(known.uuid, 'completed');
    const published = await pollAndPublish();
    const completions = published.filter(
      (message) => (JSON.parse(rawSqsBody(message)) as NotifierEvent).type === 'order.completed',
    );
    expect(completions).toHaveLength(1);
    const [completion] = completions as [PublishedMessage];
    const eventId = (JSON.parse(rawSqsBody(completion)) as NotifierEvent).id;

    // 2. The webhook channel's one subscription takes it; the function splits it in two.
    const webhookSubscription = wiring
      .sqsSubscriptions()
      .find((subscription) => wiring.mappingOf(subscription.queueArn).functionId === webhookFunctionId());
    if (!webhookSubscription) throw new Error('no webhook channel subscription');
    const { queueArn } = webhookSubscription;
    const mapping = wiring.mappingOf(queueArn);
    const environment = wiring.function(mapping.functionId).environment;
    expect(snsPolicyMatches(webhookSubscription.filterPolicy, completion.attributes)).toBe(true);
    const sentBefore = aws.sent.length;
    await invokeBatch(mapping.functionId, { Records: [queueRecord(queueArn, completion)] });
    const copies = aws.sent.slice(sentBefore);
    expect(copies.map((copy) => [copy.queueUrl, copy.messageGroupId])).toEqual([
      [environment.DELIVERY_QUEUE_URL, 'automation'],
      [environment.DELIVERY_QUEUE_URL, 'partner'],
    ]);

    // 3. Both copies in one batch, the partner's first. The automation's request arrives while the
    // partner's is still held open: the dead receiver delays nothing for the live one.
    const [forAutomation, forPartner] = copies.map((copy) => sentRecord(queueArn, copy)) as [
      SQSRecord,
      SQSRecord,
    ];
    const partnerHolding = new Promise<void>((resolve) => {
      partnerArrived = resolve;
    });
    // Whether the partner's request had ended (answered, or given up by the sender) when the automation's
    // arrived: one after the other, the automation's would wait for the sender's 15 s timeout.
    let partnerEndedFirst: boolean | undefined;
    const automationReceived = new Promise<void>((resolve) => {
      automationArrived = () => {
        partnerEndedFirst = partnerHeld.some((held) => held.closed);
        resolve();
      };
    });
    const hookedBefore = webhook.received.length;
    const visibilityBefore = aws.visibilityChanges.length;
    const running = invoke(mapping.functionId, { Records: [forPartner, forAutomation] });
    await Promise.all([partnerHolding, automationReceived]);
    expect(partnerEndedFirst).toBe(false);
    expect(partnerHeld.filter((held) => !held.closed)).toHaveLength(1);
    for (const held of partnerHeld.splice(0)) held.res.writeHead(503).end();
    automationArrived = undefined;
    partnerArrived = undefined;
    const result = await running;
    expect(webhook.received.slice(hookedBefore).map((request) => request.headers['webhook-id'])).toEqual([
      eventId,
    ]);
    // Only the partner's message is retried, on its own schedule: hidden alone, handed back alone.
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: forPartner.messageId }] });
    expect(aws.visibilityChanges.slice(visibilityBefore)).toEqual([
      expect.objectContaining({ receiptHandle: forPartner.receiptHandle }),
    ]);

    // 4. The partner's schedule spent (its last receive), and one of the automation's deliveries refused
    // for good: each is dead-lettered on the channel's one dead-letter queue, naming its subscriber.
    partnerStatus = 503;
    automationStatus = 400;
    const lastReceive = (record: SQSRecord): SQSRecord => ({
      ...record,
      attributes: { ...record.attributes, ApproximateReceiveCount: '8' },
    });
    await invokeBatch(mapping.functionId, { Records: [lastReceive(forPartner)] });
    await invokeBatch(mapping.functionId, { Records: [forAutomation] });
    automationStatus = 204;
    const deadLetterQueueUrl = environment.DEAD_LETTER_QUEUE_URL ?? '';
    const letterOf = (message: { attributes: Record<string, unknown> }) =>
      (message.attributes.subscriber as { StringValue: string }).StringValue;
    expect(aws.messagesOn(deadLetterQueueUrl).map(letterOf).sort()).toEqual(['automation', 'partner']);

    // 5. The CLI, on the stack's outputs: each subscriber's dead letters listed as its own.
    const slackEnvironment = wiring.function(slackDeliveryId).environment;
    const stackDir = await mkdtemp(join(tmpdir(), 'bundled-chain-stack-'));
    const configPath = join(stackDir, 'notifier.json');
    const outputsPath = join(stackDir, 'outputs.json');
    await writeFile(configPath, JSON.stringify(config));
    await writeFile(
      outputsPath,
      JSON.stringify({
        Chain: {
          [STACK_OUTPUT_KEYS.stateTable]: table.tableName,
          [channelOutputKeys('webhook').queue]: environment.DELIVERY_QUEUE_URL,
          [channelOutputKeys('webhook').deadLetterQueue]: deadLetterQueueUrl,
          [channelOutputKeys('slack').queue]: slackEnvironment.DELIVERY_QUEUE_URL,
          [channelOutputKeys('slack').deadLetterQueue]: slackEnvironment.DEAD_LETTER_QUEUE_URL,
          // SNS delivered everything here: its dead-letter queue is there, and empty.
          [STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue]: aws.queueUrl(ACCOUNT, 'SubscriptionDeadLetters'),
        },
      }),
    );
    const stackArgs = ['--config', configPath, '--stack', 'Chain', '--stack-outputs', outputsPath];
    for (const [name, value] of Object.entries({
      ...aws.endpointEnvironment,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: REGION,
      NORTH_SCHOOL_TOKEN: 'unused',
    })) {
      vi.stubEnv(name, value);
    }
    try {
      const listed = await runCliInProcess(['deliveries', ...stackArgs, '--failed', '--json']);
      expect(listed.stderr).toBe('');
      const letters = JSON.parse(listed.stdout) as { subscriberId: string; eventId: string; kind: string }[];
      expect(letters.map(({ subscriberId, eventId: id, kind }) => [subscriberId, id, kind]).sort()).toEqual(
        [
          ['automation', eventId, 'dead'],
          ['partner', eventId, 'retries_exhausted'],
        ].sort(),
      );

      // 6. The partner's receiver is back: its dead letters, and only them, go back to the channel's queue
      // in its message group; the automation's stays where it is.
      partnerStatus = 204;
      const queuedBefore = aws.messagesOn(environment.DELIVERY_QUEUE_URL ?? '').length;
      const replayed = await runCliInProcess([
        'replay',
        ...stackArgs,
        '--subscriber',
        'partner',
        '--dead-letters',
      ]);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(aws.messagesOn(deadLetterQueueUrl).map(letterOf)).toEqual(['automation']);
      const back = aws.messagesOn(environment.DELIVERY_QUEUE_URL ?? '').slice(queuedBefore);
      expect(back.map((message) => [message.messageGroupId, letterOf(message)])).toEqual([
        ['partner', 'partner'],
      ]);

      // 7. Its function delivers it to the partner, once.
      const partnerBefore = partner.received.length;
      await invokeBatch(mapping.functionId, {
        Records: back.map((message) => sentRecord(queueArn, message)),
      });
      expect(partner.received.slice(partnerBefore).map((request) => request.headers['webhook-id'])).toEqual([
        eventId,
      ]);
      expect(partner.received.at(-1)?.verifiedBy).toEqual([true]);
    } finally {
      vi.unstubAllEnvs();
      await rm(stackDir, { recursive: true, force: true });
    }
  }, 90_000);
  // Issue 30's done-when on AWS: two events of one order handed to two invocations of the Slack function
  // at once. The first is mid-post (its Slack calls held at the gate) when the second runs: the post is
  // claimed in the state table, so the second posts nothing and is retried; once the first has posted, the
  // retry edits its reply. One board, one reply, one edit.
  it('post one reply for an order whose two events two Slack invocations handle at once, then edit it once', async () => {
    // 1. An order at the board's establishment, then its completion: two events of one order.
    const order = sim.world.addOrder({ pickupDate: sim.world.today(), establishment: boardPlace.uuid });
    const createdMessages = await pollAndPublish();
    sim.world.setStatus(order.uuid, 'completed');
    const completedMessages = await pollAndPublish();
    const ofOrder = (messages: PublishedMessage[], type: string) =>
      messages.filter((message) => {
        const event = JSON.parse(rawSqsBody(message)) as NotifierEvent;
        return isOrderEvent(event) && event.subject === order.uuid && event.type === type;
      });
    const intake = [
      ...ofOrder(createdMessages, 'order.created'),
      ...ofOrder(completedMessages, 'order.completed'),
    ];
    expect(intake).toHaveLength(2);

    // 2. The Slack channel's queue: the function splits each into the board subscriber's copy.
    const slackSubscription = wiring
      .sqsSubscriptions()
      .find((subscription) => wiring.mappingOf(subscription.queueArn).functionId === slackDeliveryId);
    if (!slackSubscription) throw new Error('no Slack channel subscription');
    const { queueArn } = slackSubscription;
    const sentBefore = aws.sent.length;
    await invokeBatch(slackDeliveryId, { Records: intake.map((message) => queueRecord(queueArn, message)) });
    const copies = aws.sent.slice(sentBefore);
    expect(copies.map((copy) => copy.messageGroupId)).toEqual(['board', 'board']);
    const [created, completed] = copies.map((copy) => sentRecord(queueArn, copy)) as [SQSRecord, SQSRecord];

    // 3. The first invocation (the creation) until its first Slack call is on the way, held at the gate.
    const callsBefore = slackApi.calls().length;
    slackGate.shut();
    const first = invoke(slackDeliveryId, { Records: [created] });
    expect(await slackGate.firstHeld()).toBe('/chat.postMessage');
    // 4. Meanwhile the second (the completion): the board's post is claimed, so it posts nothing and is
    // handed back to be retried.
    const second = (await invoke(slackDeliveryId, { Records: [completed] })) as {
      batchItemFailures: { itemIdentifier: string }[];
    };
    expect(second.batchItemFailures).toEqual([{ itemIdentifier: completed.messageId }]);
    // It called Slack for nothing: only the first's post waits at the gate.
    expect(slackGate.heldCount()).toBe(1);
    expect(slackApi.calls().length).toBe(callsBefore);
    // 5. The first's calls go on: the board and the order's reply, posted once each.
    slackGate.open();
    expect(await first).toEqual({ batchItemFailures: [] });
    // 6. The retry edits the reply.
    const retried = { ...completed, attributes: { ...completed.attributes, ApproximateReceiveCount: '2' } };
    await invokeBatch(slackDeliveryId, { Records: [retried] });

    const calls = slackApi.calls().slice(callsBefore);
    const posts = calls.filter((call) => call.method === 'chat.postMessage' && call.status === 200);
    const mentions = (call: { args: Record<string, unknown> }) =>
      JSON.stringify(call.args).includes(order.reference);
    const boardPosts = posts.filter((call) => call.args.thread_ts === undefined);
    const replyPosts = posts.filter((call) => call.args.thread_ts !== undefined && mentions(call));
    expect(boardPosts).toHaveLength(1);
    expect(replyPosts).toHaveLength(1);
    const channel = slackApi.workspace.channel(slackApi.channel);
    const tops = [...(channel?.messages.values() ?? [])].filter((message) => message.threadTs === undefined);
    expect(tops).toHaveLength(1);
    const replies = slackApi.workspace
      .thread(slackApi.channel, tops[0]?.ts ?? '')
      .replies.filter((reply) => JSON.stringify(reply).includes(order.reference));
    expect(replies).toHaveLength(1);
    const replyTs = replies[0]?.ts;
    const replyEdits = calls.filter(
      (call) => call.method === 'chat.update' && call.status === 200 && call.args.ts === replyTs,
    );
    expect(replyEdits).toHaveLength(1);
    expect(JSON.stringify(replies[0])).toContain('✅');
  }, 90_000);
});
