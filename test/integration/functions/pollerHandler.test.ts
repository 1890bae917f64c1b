// The poller Lambda handler as AWS runs it: environment parsed at import, the tokens from Secrets Manager
// and the tick queue mocked (aws-sdk-client-mock: call shapes and errors), state in DynamoDB Local, the
// Admin API simulator on loopback (behind a proxy that can break its pending listing). Triggered by the
// minute schedule or by a tick, it polls only when the organization is due, every cycle that ran sends
// exactly one tick for the next, and a cycle that met broken listings warns and counts them.
import { randomUUID } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { AWS_LEASE_TERMS, AWS_POLLER_TIMEOUT_SECONDS } from '../../../shared/poll/awsPollSettings.js';
import { tickDelaySeconds } from '../../../shared/poll/pollWhenDue.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { type CapturedOutput, captureOutput } from '../../support/captureOutput.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { type HostileListing, hostilePendingListing } from '../../support/hostileListing.js';
import { queueUrl, sqsRecord } from '../../support/lambdaRecords.js';
import { type RewritingProxy, startRewritingProxy } from '../../support/rewritingProxy.js';

const TICK_QUEUE_URL = queueUrl('ticks');
const SECRETS_PREFIX = 'meal-order-notifier/';
/** Its token is refused by the API: every cycle of it fails. */
const SOUTH = randomUUID();
/** Its token was never put in Secrets Manager: no cycle of it can start. */
const WEST = randomUUID();

const secretsManager = mockClient(SecretsManagerClient);
const sqs = mockClient(SQSClient);
let sim: RunningSimulator;
/** Passes the simulator's answers through, unless a test breaks the pending listing. */
let proxy: RewritingProxy;
let hostile: HostileListing | undefined;
let table: LocalTable;
let store: DynamoStateStore;
let handlerModule: typeof import('../../../functions/poller/handler.js');
let output: CapturedOutput;
let north: string;

function config() {
  const organization = (id: string, name: string, token: string) => ({
    id,
    name,
    token: { env: token },
    timeZone: sim.world.timeZone,
  });
  return JSON.stringify({
    api: { baseUrl: proxy.baseUrl },
    organizations: [
      organization(north, 'North School', 'NORTH_TOKEN'),
      organization(SOUTH, 'South School', 'SOUTH_TOKEN'),
      organization(WEST, 'West School', 'WEST_TOKEN'),
    ],
  });
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, scenario: false, initialOrders: 40 });
  north = sim.organization.id;
  proxy = await startRewritingProxy(sim.baseUrl, (url, body) => hostile?.rewrite(url, body));
  table = await createLocalStateTable();
  store = new DynamoStateStore({ client: table.client, tableName: table.tableName });
  vi.stubEnv('STATE_TABLE_NAME', table.tableName);
  vi.stubEnv('NOTIFIER_CONFIG', config());
  vi.stubEnv('SECRETS_PREFIX', SECRETS_PREFIX);
  vi.stubEnv('TICK_QUEUE_URL', TICK_QUEUE_URL);
  vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', inject('dynamoEndpoint'));
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  // Debug, captured: not-due triggers log at debug, and no line may carry a token.
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'DEBUG');
  handlerModule = await import('../../../functions/poller/handler.js');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await table.drop();
  await proxy.close();
  await sim.close();
});

beforeEach(() => {
  output = captureOutput();
  const secret = (name: string) => ({ SecretId: `${SECRETS_PREFIX}${name}` });
  secretsManager.on(GetSecretValueCommand, secret('NORTH_TOKEN')).resolves({ SecretString: sim.token });
  secretsManager.on(GetSecretValueCommand, secret('SOUTH_TOKEN')).resolves({ SecretString: 'sim_refused' });
  secretsManager.on(GetSecretValueCommand, secret('WEST_TOKEN')).rejects(
    Object.assign(new Error('Secrets Manager can’t find the specified secret.'), {
      name: 'ResourceNotFoundException',
    }),
  );
  sqs.on(SendMessageCommand).resolves({ MessageId: 'tick' });
});

afterEach(() => {
  secretsManager.reset();
  sqs.reset();
  vi.restoreAllMocks();
});

/** Moves the organization's due time, as if its pace had said so. */
async function setDue(organizationId: string, nextPollAt: number): Promise<void> {
  const state = await store.loadPollState(organizationId);
  if (!state) throw new Error(`no poll state for ${organizationId}`);
  await store.savePollState({ ...state, nextPollAt });
}

async function nextPollAtOf(organizationId: string): Promise<number> {
  const nextPollAt = (await store.loadPollState(organizationId))?.nextPollAt;
  if (nextPollAt === null || nextPollAt === undefined) throw new Error(`no due time for ${organizationId}`);
  return nextPollAt;
}

/** The one tick sent since the test began. */
function sentTick() {
  expect(sqs).toHaveReceivedCommandTimes(SendMessageCommand, 1);
  const input = sqs.commandCalls(SendMessageCommand)[0]?.args[0].input;
  return { ...input, body: JSON.parse(input?.MessageBody ?? '{}') as unknown };
}

/** The ListingProblems blob: the `service` dimension alone, no organization. */
const deploymentMetric = {
  _aws: expect.objectContaining({
    CloudWatchMetrics: [expect.objectContaining({ Dimensions: [['service']] })],
  }),
  service: 'poller',
};

function tickEvent(organizationId: string, dueAt: number) {
  return { Records: [sqsRecord({ queue: 'ticks', body: JSON.stringify({ organizationId, dueAt }) })] };
}

function logLines(): Record<string, unknown>[] {
  return output
    .text()
    .split('\n')
    .filter((line) => line.startsWith('{') && !line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('poller handler, triggered by the schedule', () => {
  it('polls a due organization, reads its token from Secrets Manager, records events in DynamoDB, and sends one tick for the next cycle', async () => {
    const before = Date.now();
    const first = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r1' });
    const after = Date.now();
    expect(first).toMatchObject({ ok: true, outcome: 'polled', events: 0 });
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, {
      SecretId: 'meal-order-notifier/NORTH_TOKEN',
    });
    expect(output.emf()).toEqual([
      { ...deploymentMetric, ListingProblems: 0 },
      expect.objectContaining({ Organization: north, PollSucceeded: 1, EventsEmitted: 0 }),
    ]);

    const dueAt = await nextPollAtOf(north);
    expect(dueAt).toBeGreaterThanOrEqual(before + 10_000);
    const tick = sentTick();
    expect(tick).toMatchObject({ QueueUrl: TICK_QUEUE_URL, body: { organizationId: north, dueAt } });
    expect(tick.DelaySeconds).toBeGreaterThanOrEqual(tickDelaySeconds(dueAt, after));
    expect(tick.DelaySeconds).toBeLessThanOrEqual(tickDelaySeconds(dueAt, before));
    expect(first).toMatchObject({ nextTickDelaySeconds: tick.DelaySeconds });

    const [order] = sim.world.listOrders(
      (o) => o.status.value === 'pending' && o.pickup_at >= sim.world.today(),
    );
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'canceled');
    await setDue(north, Date.now());
    const second = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r2' });
    expect(second).toMatchObject({ ok: true, events: 1 });
    expect(sqs).toHaveReceivedCommandTimes(SendMessageCommand, 2);
    const logged = await store.listEvents(north);
    expect(logged.map(({ event }) => `${event.type} ${event.subject}`)).toEqual([
      `order.canceled ${order.uuid}`,
    ]);
    expect(output.text()).not.toContain(sim.token);
  });

  it('answers a trigger before the due time with one state read: no API request, no tick, no metric', async () => {
    await setDue(north, Date.now() + 60_000);
    const requestsBefore = sim.requestLog.size;
    const result = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r3' });
    expect(result).toEqual({
      organization: north,
      outcome: 'not_due',
      nextPollAt: new Date(await nextPollAtOf(north)).toISOString(),
    });
    expect(sim.requestLog.size).toBe(requestsBefore);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    expect(output.emf()).toEqual([]);
    expect(logLines()).toContainEqual(expect.objectContaining({ level: 'DEBUG', message: 'poll not due' }));
  });

  it('leaves an organization to the invocation holding its lease, and takes the lease for its timeout alone', async () => {
    await setDue(north, Date.now());
    // An invocation that started a minute ago may still be running: its lease holds off this one.
    expect(await store.acquireLease(north, 'r-running', Date.now() - 60_000, AWS_LEASE_TERMS.ttlMs)).toBe(
      true,
    );
    const requestsBefore = sim.requestLog.size;
    const skipped = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r-waiting' });
    expect(skipped).toMatchObject({
      outcome: 'skipped',
      reason: 'another run, r-running, is polling this organization',
      nextTickDelaySeconds: null,
    });
    expect(sim.requestLog.size).toBe(requestsBefore);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    await store.releaseLease(north, 'r-running');

    // Cut short at its timeout, an invocation leaves a lease that runs out then too.
    const acquire = vi.spyOn(DynamoStateStore.prototype, 'acquireLease');
    const polled = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r-leasing' });
    expect(polled).toMatchObject({ outcome: 'polled', ok: true });
    expect(acquire).toHaveBeenCalledTimes(1);
    const [organizationId, owner, , ttlMs] = acquire.mock.calls[0] ?? [];
    expect({ organizationId, owner, ttlMs }).toEqual({
      organizationId: north,
      owner: 'r-leasing',
      ttlMs: AWS_POLLER_TIMEOUT_SECONDS * 1000,
    });
    expect(await store.leaseHolder(north)).toBeUndefined();
  });

  it('still sends the tick of the next cycle when the cycle fails, and publishes PollSucceeded 0', async () => {
    const result = await handlerModule.handler({ organizationId: SOUTH }, { awsRequestId: 'r4' });
    expect(result).toMatchObject({ outcome: 'polled', ok: false });
    expect(sentTick()).toMatchObject({ body: { organizationId: SOUTH, dueAt: await nextPollAtOf(SOUTH) } });
    expect(output.emf()).toEqual([
      { ...deploymentMetric, ListingProblems: 0 },
      expect.objectContaining({ Organization: SOUTH, PollSucceeded: 0 }),
    ]);
    expect(output.text()).not.toContain('sim_refused');
  });

  it('refuses an event for an organization the config does not hold', async () => {
    await expect(
      handlerModule.handler(
        { organizationId: '00000000-0000-4000-8000-000000000000' },
        { awsRequestId: 'r5' },
      ),
    ).rejects.toThrow('organization 00000000-0000-4000-8000-000000000000 is not in this deployment');
  });

  it('refuses an event without an organization id', async () => {
    await expect(handlerModule.handler({}, { awsRequestId: 'r6' })).rejects.toThrow(
      'poller event must be {"organizationId": "<uuid>"}',
    );
  });

  it('warns with every listing problem of the cycle, and counts them in the deployment’s ListingProblems', async () => {
    if (await store.loadPollState(north)) await setDue(north, Date.now());
    hostile = hostilePendingListing();
    const broken = hostile;
    let result: Awaited<ReturnType<typeof handlerModule.handler>>;
    try {
      result = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r-broken' });
    } finally {
      hostile = undefined;
    }
    // Problems are not failures: the cycle polled, and PollSucceeded says so.
    expect(result).toMatchObject({ outcome: 'polled', ok: true, listingProblems: expect.any(Number) });
    const count = (result as { listingProblems: number }).listingProblems;
    expect(count).toBeGreaterThanOrEqual(3);
    const [warning, ...others] = logLines().filter((line) => line.message === 'listing problems');
    expect(others).toEqual([]);
    expect(warning).toMatchObject({ level: 'WARN', organization: north, trigger: 'schedule', more: 0 });
    expect(warning?.problems).toHaveLength(count);
    expect(warning?.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'repeated_uuid',
          listing: 'pending',
          page: 1,
          uuid: broken.repeatedUuid,
        }),
        expect.objectContaining({
          kind: 'skipped_record',
          listing: 'pending',
          page: 1,
          uuid: broken.malformedUuid,
        }),
      ]),
    );
    expect(output.emf()).toEqual([
      { ...deploymentMetric, ListingProblems: count },
      expect.objectContaining({ Organization: north, PollSucceeded: 1 }),
    ]);
    expect(output.text()).not.toContain('twelve euros');
  });

  it('says which secret has no value when Secrets Manager does not have it, and sends no tick', async () => {
    await expect(handlerModule.handler({ organizationId: WEST }, { awsRequestId: 'r7' })).rejects.toThrow(
      'secret meal-order-notifier/WEST_TOKEN has no value in Secrets Manager',
    );
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
  });
});

describe('poller handler, triggered by a tick', () => {
  it('polls a due organization and sends one tick for the next cycle, as the schedule does', async () => {
    await setDue(north, Date.now());
    const requestsBefore = sim.requestLog.size;
    const result = await handlerModule.handler(tickEvent(north, Date.now()), { awsRequestId: 'r8' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sim.requestLog.size).toBeGreaterThan(requestsBefore);
    expect(sentTick()).toMatchObject({
      QueueUrl: TICK_QUEUE_URL,
      body: { organizationId: north, dueAt: await nextPollAtOf(north) },
    });
    expect(output.emf()).toEqual([
      { ...deploymentMetric, ListingProblems: 0 },
      expect.objectContaining({ Organization: north, PollSucceeded: 1 }),
    ]);
  });

  it('ends the chain at a duplicate or early tick: no API request, no tick', async () => {
    const dueAt = await nextPollAtOf(north);
    expect(dueAt).toBeGreaterThan(Date.now());
    const requestsBefore = sim.requestLog.size;
    const result = await handlerModule.handler(tickEvent(north, dueAt), { awsRequestId: 'r9' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sim.requestLog.size).toBe(requestsBefore);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    expect(output.emf()).toEqual([]);
  });

  it('still sends the tick of the next cycle when the cycle fails, without failing the batch', async () => {
    await setDue(SOUTH, Date.now());
    const result = await handlerModule.handler(tickEvent(SOUTH, Date.now()), { awsRequestId: 'r10' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sentTick()).toMatchObject({ body: { organizationId: SOUTH, dueAt: await nextPollAtOf(SOUTH) } });
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        level: 'WARN',
        message: 'poll cycle failed',
        organization: SOUTH,
        trigger: 'tick',
      }),
    );
  });

  it('logs a tick that could not start its cycle and drops it, for the schedule to restart the chain', async () => {
    const result = await handlerModule.handler(tickEvent(WEST, Date.now()), { awsRequestId: 'r11' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        message: 'tick failed; the schedule restarts the chain',
        organization: WEST,
      }),
    );
  });

  it('drops a tick of an organization no longer deployed, and a record that is not a tick', async () => {
    const gone = tickEvent('00000000-0000-4000-8000-000000000000', Date.now()).Records;
    const garbage = [sqsRecord({ queue: 'ticks', body: 'not a tick' })];
    const result = await handlerModule.handler({ Records: [...gone, ...garbage] }, { awsRequestId: 'r12' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    expect(logLines().map(({ level, message }) => `${level} ${message}`)).toEqual(
      expect.arrayContaining([
        'WARN tick dropped: organization not polled',
        'ERROR tick dropped: not a tick',
      ]),
    );
  });
});
