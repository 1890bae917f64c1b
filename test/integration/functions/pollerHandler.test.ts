// The poller Lambda handler as AWS runs it: environment parsed at import, the token from Secrets Manager
// (mocked: call shapes and errors), state in DynamoDB Local, the Admin API simulator on loopback.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';

const secretsManager = mockClient(SecretsManagerClient);
let sim: RunningSimulator;
let table: LocalTable;
let handlerModule: typeof import('../../../functions/poller/handler.js');
let stdout: string[];

function config(organizationId: string) {
  return JSON.stringify({
    api: { baseUrl: sim.baseUrl },
    organizations: [
      {
        id: organizationId,
        name: 'North School',
        token: { env: 'NORTH_TOKEN' },
        timeZone: sim.world.timeZone,
      },
    ],
  });
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, scenario: false, initialOrders: 40 });
  table = await createLocalStateTable();
  vi.stubEnv('STATE_TABLE_NAME', table.tableName);
  vi.stubEnv('NOTIFIER_CONFIG', config(sim.organization.id));
  vi.stubEnv('SECRETS_PREFIX', 'meal-order-notifier/');
  vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', inject('dynamoEndpoint'));
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'SILENT');
  handlerModule = await import('../../../functions/poller/handler.js');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await table.drop();
  await sim.close();
});

afterEach(() => {
  secretsManager.reset();
  vi.restoreAllMocks();
});

function captureStdout(): void {
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
}

describe('poller handler', () => {
  it('polls the organization named in the event, reads the token from Secrets Manager, and records events in DynamoDB', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: sim.token });
    captureStdout();
    const first = await handlerModule.handler(
      { organizationId: sim.organization.id },
      { awsRequestId: 'r1' },
    );
    expect(first).toMatchObject({ ok: true, outcome: 'polled', events: 0 });
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, {
      SecretId: 'meal-order-notifier/NORTH_TOKEN',
    });
    const emf = stdout.map((line) => JSON.parse(line)).find((blob) => blob._aws);
    expect(emf).toMatchObject({ Organization: sim.organization.id, PollSucceeded: 1, EventsEmitted: 0 });
    expect(JSON.stringify(stdout)).not.toContain(sim.token);

    const [order] = sim.world.listOrders(
      (o) => o.status.value === 'pending' && o.pickup_at >= sim.world.today(),
    );
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'canceled');
    const second = await handlerModule.handler(
      { organizationId: sim.organization.id },
      { awsRequestId: 'r2' },
    );
    expect(second).toMatchObject({ ok: true, events: 1 });

    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName });
    const logged = await store.listEvents(sim.organization.id);
    expect(logged.map(({ event }) => `${event.type} ${event.subject}`)).toEqual([
      `order.canceled ${order.uuid}`,
    ]);
  });

  it('refuses an event for an organization the config does not hold', async () => {
    await expect(
      handlerModule.handler(
        { organizationId: '00000000-0000-4000-8000-000000000000' },
        { awsRequestId: 'r3' },
      ),
    ).rejects.toThrow('organization 00000000-0000-4000-8000-000000000000 is not in this deployment');
  });

  it('refuses an event without an organization id', async () => {
    await expect(handlerModule.handler({}, { awsRequestId: 'r4' })).rejects.toThrow(
      'poller event must be {"organizationId": "<uuid>"}',
    );
  });

  it('says which secret has no value when Secrets Manager does not have it', async () => {
    // The container caches the token; a new one must be fetched after it changes, so clear the module.
    vi.resetModules();
    const fresh = await import('../../../functions/poller/handler.js');
    const notFound = Object.assign(new Error('Secrets Manager can’t find the specified secret.'), {
      name: 'ResourceNotFoundException',
    });
    secretsManager.on(GetSecretValueCommand).rejects(notFound);
    await expect(
      fresh.handler({ organizationId: sim.organization.id }, { awsRequestId: 'r5' }),
    ).rejects.toThrow('secret meal-order-notifier/NORTH_TOKEN has no value in Secrets Manager');
  });
});
