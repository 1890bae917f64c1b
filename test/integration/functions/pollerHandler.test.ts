// The poller Lambda handler as AWS runs it: environment parsed at import, the tokens from their one
// Secrets Manager secret and the tick queue mocked (aws-sdk-client-mock: call shapes and errors), state in
// DynamoDB Local, the Admin API simulator on loopback (behind a proxy that can break its pending listing).
// Triggered by the minute schedule or by a tick, it polls only when the organization is due, every cycle
// that ran sends exactly one tick for the next, and a cycle that met broken listings warns and counts
// them. A token not put yet is a failed cycle, not an error. No metric per organization: only the
// deployment's ListingProblems for a cycle that polled (the watchdog judges overdue). Organizations whose different secret references hold one token share it: each
// paces for its share of the token's budget.
import { randomUUID } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import type { Establishment } from '../../../shared/api/schemas.js';
import { AWS_LEASE_TERMS, AWS_POLLER_TIMEOUT_SECONDS } from '../../../shared/contracts/awsPollSettings.js';
import { TOKEN_REJECTED_RETRY_MS } from '../../../shared/contracts/tokenRejected.js';
import { tickDelaySeconds } from '../../../shared/poll/pollWhenDue.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { addDays, calendarDateIn } from '../../../shared/time/calendarDate.js';
import { isoWeekday } from '../../../shared/time/zonedTime.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { type CapturedOutput, captureOutput } from '../../support/captureOutput.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import { type HostileListing, hostilePendingListing } from '../../support/hostileListing.js';
import { queueUrl, sqsRecord } from '../../support/lambdaRecords.js';
import { type RewritingProxy, startRewritingProxy } from '../../support/rewritingProxy.js';

const TICK_QUEUE_URL = queueUrl('ticks');
const SECRETS_PREFIX = 'meal-order-notifier/';
const TOKENS_SECRET = `${SECRETS_PREFIX}organization-tokens`;
/** Its token is refused by the API: every cycle of it fails. */
const SOUTH = randomUUID();
/** Its token was never put in the tokens secret: no cycle of it can start. */
const WEST = randomUUID();
/** Its token's budget is paused by a 429 elsewhere: its cycles are deferred. */
const EAST = randomUUID();
const EAST_TOKEN_VALUE = 'sim_east_token';
const NORTH_TOKEN_VALUE = 'sim_north_token';
/** South Academy's token, held by two secret references: the academy's and its annex's. */
const ACADEMY_TOKEN_VALUE = 'sim_academy_token';
/** Shares South Academy's token under a reference of its own; never triggered here. */
const ACADEMY_ANNEX = randomUUID();

const secretsManager = mockClient(SecretsManagerClient);
const sqs = mockClient(SQSClient);
// Test files share a worker (isolate: false): the clients' real send() goes back for the next file.
afterAll(() => {
  secretsManager.restore();
  sqs.restore();
});
let sim: RunningSimulator;
/** Passes the simulator's answers through, unless a test breaks the pending listing. */
let proxy: RewritingProxy;
let hostile: HostileListing | undefined;
let table: LocalTable;
let store: DynamoStateStore;
let handlerModule: typeof import('../../../functions/poller/handler.js');
let output: CapturedOutput;
let north: string;
let academy: string;

function config() {
  const organization = (id: string, name: string, token: string, settings = {}) => ({
    id,
    name,
    token: { env: token },
    timeZone: sim.world.timeZone,
    ...settings,
  });
  // Paced by the budget alone: the shortest floor, and no cadence to move the next cycle.
  const budgetPaced = { pollIntervalSeconds: 2, cadence: 'fixed' };
  return JSON.stringify({
    api: { baseUrl: proxy.baseUrl },
    organizations: [
      organization(north, 'North School', 'NORTH_TOKEN'),
      organization(SOUTH, 'South School', 'SOUTH_TOKEN'),
      organization(WEST, 'West School', 'WEST_TOKEN'),
      organization(EAST, 'East School', 'EAST_TOKEN'),
      organization(academy, 'South Academy', 'ACADEMY_TOKEN', budgetPaced),
      organization(ACADEMY_ANNEX, 'South Academy Annex', 'ACADEMY_ANNEX_TOKEN', budgetPaced),
    ],
  });
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 8,
    scenario: false,
    initialOrders: 40,
    tokens: [
      { token: NORTH_TOKEN_VALUE, organizations: ['North School'] },
      { token: ACADEMY_TOKEN_VALUE, organizations: ['South Academy'] },
    ],
  });
  north = sim.organization.id;
  const second = sim.organizations[1];
  if (!second) throw new Error('the simulator has no second organization');
  academy = second.id;
  proxy = await startRewritingProxy(sim.baseUrl, (url, body) => hostile?.rewrite(url, body));
  table = await createLocalStateTable();
  store = new DynamoStateStore({ client: table.client, tableName: table.tableName });
  vi.stubEnv('STATE_TABLE_NAME', table.tableName);
  vi.stubEnv('NOTIFIER_CONFIG', config());
  vi.stubEnv('SECRETS_PREFIX', SECRETS_PREFIX);
  vi.stubEnv('TICK_QUEUE_URL', TICK_QUEUE_URL);
  vi.stubEnv('CATCH_UP_AFTER_SECONDS', 'none');
  vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', inject('dynamoEndpoint'));
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  // Debug, captured: not-due triggers log at debug, and no line may carry a token.
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'DEBUG');
  // As the stack sets it (SERVICE_NAMES.poller): the Logger takes its service name from it.
  vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'poller');
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
  // Every token but WEST's; read once, then from the handler's cache for five minutes.
  secretsManager.on(GetSecretValueCommand, { SecretId: TOKENS_SECRET }).resolves({
    SecretString: JSON.stringify({
      NORTH_TOKEN: sim.token,
      SOUTH_TOKEN: 'sim_refused',
      EAST_TOKEN: EAST_TOKEN_VALUE,
      ACADEMY_TOKEN: ACADEMY_TOKEN_VALUE,
      ACADEMY_ANNEX_TOKEN: ACADEMY_TOKEN_VALUE,
    }),
  });
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
  await store.savePollState({ ...state, pace: { ...state.pace, nextPollAt } });
}

async function nextPollAtOf(organizationId: string): Promise<number> {
  const nextPollAt = (await store.loadPollState(organizationId))?.pace.nextPollAt;
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

/** Secrets Manager as a first deployment leaves it: the tokens secret exists, with no value. */
function tokensNotPutYet(): void {
  secretsManager.reset();
  secretsManager.on(GetSecretValueCommand).rejects(
    Object.assign(
      new Error('Secrets Manager can’t find the specified secret value for staging label: AWSCURRENT'),
      {
        name: 'ResourceNotFoundException',
      },
    ),
  );
}

const notSetLine = (organization: string, key: string) =>
  expect.objectContaining({
    level: 'ERROR',
    message: 'poll cycle failed: organization token not set',
    organization,
    secret: TOKENS_SECRET,
    reason: expect.stringContaining(
      `secret ${TOKENS_SECRET} has no value for ${key} in Secrets Manager (needed by $.organizations[`,
    ),
  });

// First: the handler caches the tokens secret once it has read a value.
describe('poller handler, on a first deployment before the tokens are put', () => {
  it('makes each trigger a failed cycle, never an error: one line naming the secret and the command that sets it, no metric, no request, no tick', async () => {
    tokensNotPutYet();
    const requestsBefore = sim.requestLog.size;
    const result = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'first-1' });
    expect(result).toEqual({
      organization: north,
      outcome: 'failed',
      ok: false,
      reason: expect.stringContaining(
        `set it with: meal-notifier put-secrets --config <the config the stack was deployed with> --secrets-prefix ${SECRETS_PREFIX} --file`,
      ),
      nextTickDelaySeconds: null,
    });
    const lines = logLines();
    expect(lines).toEqual([notSetLine(north, 'NORTH_TOKEN')]);
    expect(output.emf()).toEqual([]);
    expect(sim.requestLog.size).toBe(requestsBefore);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
  });

  it('does the same for a tick, without failing the batch or logging it as a broken chain', async () => {
    tokensNotPutYet();
    const result = await handlerModule.handler(tickEvent(SOUTH, Date.now()), { awsRequestId: 'first-2' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(logLines()).toEqual([notSetLine(SOUTH, 'SOUTH_TOKEN')]);
    expect(output.emf()).toEqual([]);
  });
});

describe('poller handler, triggered by the schedule', () => {
  it('polls a due organization, reads its token from the tokens secret, records events in DynamoDB, and sends one tick for the next cycle', async () => {
    const before = Date.now();
    const first = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r1' });
    const after = Date.now();
    expect(first).toMatchObject({ ok: true, outcome: 'polled', events: 0 });
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, { SecretId: TOKENS_SECRET });
    expect(output.emf()).toEqual([{ ...deploymentMetric, ListingProblems: 0 }]);
    // The cycle's figures are fields of its line, where the dashboard queries them.
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        message: 'poll cycle',
        service: 'poller',
        organization: north,
        requests: expect.any(Number),
        budgetRemaining: expect.any(Number),
        ordersSeen: expect.any(Number),
        events: 0,
      }),
    );

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

  it('answers a trigger before the due time with one state read: no API request, no tick, and no metric', async () => {
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

  it('answers every minute of a cold day with no API request: the cycle that found the day cold is due coldSweepMinutes later', async () => {
    // The organization's establishments as GET /establishments gives them, none working today or tomorrow.
    const response = await fetch(`${sim.baseUrl}/establishments`, {
      headers: { authorization: `Bearer ${sim.token}`, 'x-service-organization': north },
    });
    const { data } = (await response.json()) as { data: Establishment[] };
    const today = calendarDateIn(sim.world.timeZone, Date.now());
    const closed = new Set([isoWeekday(today), isoWeekday(addDays(today, 1))]);
    const openDays = [1, 2, 3, 4, 5, 6, 7].filter((day) => !closed.has(day));
    const state = await store.loadPollState(north);
    if (!state) throw new Error('no poll state for North School');
    await store.savePollState({
      ...state,
      pace: { ...state.pace, nextPollAt: Date.now() - 1_000 },
      establishments: {
        fetchedAt: Date.now(),
        records: data.map((record) => ({ ...record, working_days: openDays })),
      },
    });

    const startedAt = Date.now();
    const cycle = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'cold-1' });
    const endedAt = Date.now();
    expect(cycle).toMatchObject({ outcome: 'polled', ok: true, cadence: 'cold' });
    const dueAt = await nextPollAtOf(north);
    expect(dueAt - startedAt).toBeGreaterThanOrEqual(15 * 60_000);
    expect(dueAt - endedAt).toBeLessThanOrEqual(15 * 60_000);
    // SQS delays stop at 15 minutes: the tick carries the whole gap, as seen at some instant of the
    // handler's run. Not the test's own later Date.now(): on a loaded machine a second or more passes
    // between the two, and the gap rounds one second shorter.
    const { DelaySeconds } = sentTick();
    expect(DelaySeconds).toBeGreaterThanOrEqual(tickDelaySeconds(dueAt, endedAt));
    expect(DelaySeconds).toBeLessThanOrEqual(tickDelaySeconds(dueAt, startedAt));
    sqs.resetHistory();
    const metricsOfCycle = output.emf().length;

    // The minute schedule's next triggers, and a duplicate tick: one state read each, nothing spent.
    const requestsBefore = sim.requestLog.size;
    const budgetBefore = await new RequestBudget({
      token: sim.token,
      store: store.budgetCounters,
    }).remaining();
    for (const awsRequestId of ['cold-2', 'cold-3']) {
      const result = await handlerModule.handler({ organizationId: north }, { awsRequestId });
      expect(result).toMatchObject({ outcome: 'not_due', nextPollAt: new Date(dueAt).toISOString() });
    }
    await handlerModule.handler(tickEvent(north, Date.now()), { awsRequestId: 'cold-4' });
    expect(sim.requestLog.size).toBe(requestsBefore);
    expect(
      await new RequestBudget({ token: sim.token, store: store.budgetCounters }).remaining(),
    ).toBeGreaterThanOrEqual(budgetBefore);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    // A trigger not due publishes nothing: the watchdog reads the plan (15 minutes apart today) from the state.
    expect(output.emf().slice(metricsOfCycle)).toEqual([]);
    await store.savePollState({ ...((await store.loadPollState(north)) ?? state), establishments: null });
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

  it('still sends the tick of the next cycle when the cycle fails', async () => {
    const before = Date.now();
    const result = await handlerModule.handler({ organizationId: SOUTH }, { awsRequestId: 'r4' });
    expect(result).toMatchObject({ outcome: 'polled', ok: false });
    // Worded as the local runner words it (shared/config/explainApiFailure.ts).
    expect((result as { failures: string[] }).failures).toContainEqual(
      // On AWS the token is a value of the tokens secret, and the line says which.
      `South School: token rejected: put a new token; the API answered 401 (unauthorized): the SOUTH_TOKEN value of secret ${TOKENS_SECRET} is wrong, expired or revoked`,
    );
    // A rejected token: the chain's next tick is its slow retry, five minutes on, not the pace's.
    const dueAt = await nextPollAtOf(SOUTH);
    expect(dueAt).toBeGreaterThanOrEqual(before + TOKEN_REJECTED_RETRY_MS);
    expect(sentTick()).toMatchObject({ body: { organizationId: SOUTH, dueAt } });
    // No metric of the organization: the watchdog reads its rejected token from the state table.
    expect(output.emf()).toEqual([{ ...deploymentMetric, ListingProblems: 0 }]);
    expect(result).toMatchObject({ tokenRejected: true });
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
    // Problems are not failures: the cycle polled.
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
    expect(output.emf()).toEqual([{ ...deploymentMetric, ListingProblems: count }]);
    expect(output.text()).not.toContain('twelve euros');
  });

  it('makes an organization whose token is missing from the secret a failed cycle naming the key, while the others poll', async () => {
    const result = await handlerModule.handler({ organizationId: WEST }, { awsRequestId: 'r7' });
    expect(result).toMatchObject({
      organization: WEST,
      outcome: 'failed',
      ok: false,
      reason: expect.stringContaining(
        `secret ${TOKENS_SECRET} has no value for WEST_TOKEN in Secrets Manager (needed by $.organizations[2].token); set it with: meal-notifier put-secrets`,
      ),
    });
    expect(logLines()).toEqual([notSetLine(WEST, 'WEST_TOKEN')]);
    // Deferred: it walked nothing, so no ListingProblems either.
    expect(output.emf()).toEqual([]);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    expect(output.text()).not.toContain(sim.token);
  });

  it('publishes no metric for a cycle skipped for another run’s lease, with no figures and no tick: no failed cycle', async () => {
    await setDue(north, Date.now());
    expect(await store.acquireLease(north, 'another-run', Date.now(), 60_000)).toBe(true);
    try {
      const result = await handlerModule.handler({ organizationId: north }, { awsRequestId: 'r-skip' });
      expect(result).toEqual({
        organization: north,
        outcome: 'skipped',
        reason: 'another run, another-run, is polling this organization',
        ok: false,
        nextTickDelaySeconds: null,
      });
    } finally {
      await store.releaseLease(north, 'another-run');
    }
    // The run holding the lease tells its cycle; this trigger publishes nothing.
    expect(output.emf()).toEqual([]);
    const [line] = logLines().filter(({ message }) => message === 'poll cycle skipped');
    // No figures: a 0 of budget left or orders seen would be a false point on the dashboard.
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('budgetRemaining');
    expect(line).not.toHaveProperty('requests');
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
  });

  it('takes a tick redelivered while its cycle still runs as a skip: no failure logged, no metric, no tick, nothing retried', async () => {
    await setDue(north, Date.now());
    // The first delivery's invocation is still polling: it holds the lease.
    expect(await store.acquireLease(north, 'r-first-delivery/m1', Date.now(), 60_000)).toBe(true);
    try {
      const result = await handlerModule.handler(tickEvent(north, Date.now()), { awsRequestId: 'r-again' });
      expect(result).toEqual({ batchItemFailures: [] });
    } finally {
      await store.releaseLease(north, 'r-first-delivery/m1');
    }
    // Nothing published: the run holding the lease tells its cycle.
    expect(output.emf()).toEqual([]);
    const lines = logLines();
    expect(lines.filter(({ level }) => level === 'ERROR' || level === 'WARN')).toEqual([]);
    expect(lines.filter(({ message }) => message === 'poll cycle skipped')).toHaveLength(1);
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
  });

  it('publishes nothing for a cycle deferred for want of budget, and still sends the tick of the next one', async () => {
    // A 429 met elsewhere paused the token's budget for two minutes: pending cannot be paid for.
    const key = new RequestBudget({ token: EAST_TOKEN_VALUE }).key;
    await store.budgetCounters.pauseUntil(key, Date.now() + 120_000);
    const requestsBefore = sim.requestLog.size;
    const result = await handlerModule.handler({ organizationId: EAST }, { awsRequestId: 'r-deferred' });
    expect(result).toMatchObject({ organization: EAST, outcome: 'deferred', ok: false, requests: 0 });
    expect(output.emf()).toEqual([]);
    expect(sim.requestLog.size).toBe(requestsBefore);
    expect(sentTick()).toMatchObject({ body: { organizationId: EAST, dueAt: await nextPollAtOf(EAST) } });
  });
});

describe('poller handler, with two secret references holding one token', () => {
  it('paces each organization on the token for its half of the budget: counted by the token, not by the reference', async () => {
    const before = Date.now();
    const result = await handlerModule.handler({ organizationId: academy }, { awsRequestId: 'r-shared' });
    expect(result).toMatchObject({ organization: academy, outcome: 'polled', ok: true });
    expect((result as { requests: number }).requests).toBeGreaterThan(0);
    // A first cycle (the baseline, the whole window at once): the next is due when a cycle of what the pace
    // plans (the state's average) takes its share of it: HEADROOM (0.9) of the usable 50 a minute split
    // between the organizations on the token, each reservation held up to 17 s longer in the window
    // (shared/detect/pacePoll.ts, shared/poll/planNextCycle.ts, shared/api/requestBudget.ts).
    const planned = (await store.loadPollState(academy))?.pace.averageCycleRequests ?? 0;
    expect(planned).toBeGreaterThan(0);
    const shareOf = (organizations: number) => (0.9 * 50) / organizations;
    const gapMs = (organizations: number, holdMs: number) =>
      Math.max(2_000, ((planned * 60_000) / shareOf(organizations)) * ((60_000 + holdMs) / 60_000));
    const dueAt = await nextPollAtOf(academy);
    // Alone on its token, the gap would be at most gapMs(1, 17_000): below what two organizations allow.
    expect(gapMs(1, 17_000)).toBeLessThan(gapMs(2, 0));
    expect(dueAt - before).toBeGreaterThanOrEqual(gapMs(2, 0) - 1);
    expect(output.text()).not.toContain(ACADEMY_TOKEN_VALUE);
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
    expect(output.emf()).toEqual([{ ...deploymentMetric, ListingProblems: 0 }]);
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

  it('makes a tick of an organization whose token is missing the same failed cycle, not a broken chain', async () => {
    const result = await handlerModule.handler(tickEvent(WEST, Date.now()), { awsRequestId: 'r11' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
    expect(logLines()).toEqual([notSetLine(WEST, 'WEST_TOKEN')]);
  });

  it('logs a tick whose cycle could not send the next one and drops it, for the schedule to restart the chain', async () => {
    await setDue(north, Date.now());
    sqs
      .on(SendMessageCommand)
      .rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const result = await handlerModule.handler(tickEvent(north, Date.now()), { awsRequestId: 'r11b' });
    expect(result).toEqual({ batchItemFailures: [] });
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        message: 'tick failed; the schedule restarts the chain',
        organization: north,
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
