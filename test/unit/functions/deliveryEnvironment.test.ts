// The Slack and webhook delivery functions check their environment at import, against the config they
// deliver: a miswired stack fails on the first cold start, naming the variable and what is wrong.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDeliveryEnvironment } from '../../../functions/shared/deliveryEnvironment.js';
import { BUNDLED_CONFIG_GLOBAL } from '../../../shared/contracts/bundledConfig.js';
import { queueArn, queueUrl } from '../../support/lambdaRecords.js';

const CONFIG = JSON.stringify({
  api: { baseUrl: 'https://example.test/api/v1/admin' },
  organizations: [
    {
      id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      name: 'North School',
      token: { env: 'NORTH_TOKEN' },
      timeZone: 'Europe/Lisbon',
    },
  ],
  subscribers: [
    {
      id: 'acme-hooks',
      type: 'webhook',
      url: 'https://hooks.example.test/orders',
      secret: { env: 'ACME_SECRET' },
    },
    { id: 'kitchen', type: 'slack', webhookUrl: { env: 'KITCHEN_SLACK_URL' } },
  ],
});

function env(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    STATE_TABLE_NAME: 'state',
    NOTIFIER_CONFIG: CONFIG,
    SECRETS_PREFIX: 'meal-order-notifier/',
    QUEUE_SUBSCRIBERS: JSON.stringify({ [queueArn('acme-hooks')]: 'acme-hooks' }),
    DLQ_URLS: JSON.stringify({ 'acme-hooks': queueUrl('acme-hooks-dlq') }),
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('parseDeliveryEnvironment', () => {
  it('names every variable that is not set', () => {
    expect(() => parseDeliveryEnvironment('webhook-delivery', 'webhook', {})).toThrow(
      'webhook-delivery environment: STATE_TABLE_NAME is not set; NOTIFIER_CONFIG is not set; SECRETS_PREFIX is not set; QUEUE_SUBSCRIBERS is not set; DLQ_URLS is not set',
    );
  });

  it('maps each queue ARN to its subscriber, and each subscriber to its DLQ URL', () => {
    const parsed = parseDeliveryEnvironment('webhook-delivery', 'webhook', env());
    expect(parsed.tableName).toBe('state');
    expect(parsed.secretsPrefix).toBe('meal-order-notifier/');
    expect(parsed.subscriberOfQueue.get(queueArn('acme-hooks'))?.id).toBe('acme-hooks');
    expect(parsed.deadLetterQueueUrl.get('acme-hooks')).toBe(queueUrl('acme-hooks-dlq'));
  });

  it('refuses a QUEUE_SUBSCRIBERS that is not JSON', () => {
    expect(() =>
      parseDeliveryEnvironment('webhook-delivery', 'webhook', env({ QUEUE_SUBSCRIBERS: '{arn: acme}' })),
    ).toThrow(
      'webhook-delivery environment: QUEUE_SUBSCRIBERS: must be a JSON object of an SQS queue ARN → a subscriber id, and is not valid JSON',
    );
  });

  it('refuses a key that is not a queue ARN and a DLQ URL that is not a URL', () => {
    expect(() =>
      parseDeliveryEnvironment(
        'webhook-delivery',
        'webhook',
        env({
          QUEUE_SUBSCRIBERS: JSON.stringify({ 'acme-hooks-queue': 'acme-hooks' }),
          DLQ_URLS: JSON.stringify({ 'acme-hooks': 'acme-hooks-dlq' }),
        }),
      ),
    ).toThrow(
      'webhook-delivery environment: QUEUE_SUBSCRIBERS: "acme-hooks-queue" is not an SQS queue ARN; DLQ_URLS: the value of "acme-hooks" is not an SQS queue URL',
    );
  });

  it('refuses a queue whose subscriber the config does not have', () => {
    expect(() =>
      parseDeliveryEnvironment(
        'webhook-delivery',
        'webhook',
        env({ QUEUE_SUBSCRIBERS: JSON.stringify({ [queueArn('gone')]: 'old-hooks' }) }),
      ),
    ).toThrow(
      `QUEUE_SUBSCRIBERS: queue ${queueArn('gone')} names subscriber "old-hooks", which NOTIFIER_CONFIG does not have`,
    );
  });

  it('refuses a queue whose subscriber another function delivers', () => {
    expect(() =>
      parseDeliveryEnvironment(
        'webhook-delivery',
        'webhook',
        env({ QUEUE_SUBSCRIBERS: JSON.stringify({ [queueArn('kitchen')]: 'kitchen' }) }),
      ),
    ).toThrow(
      'QUEUE_SUBSCRIBERS: subscriber "kitchen" is a slack subscriber; webhook-delivery delivers webhook subscribers only',
    );
  });

  it('refuses a subscriber without a dead-letter queue', () => {
    expect(() =>
      parseDeliveryEnvironment(
        'webhook-delivery',
        'webhook',
        env({ DLQ_URLS: JSON.stringify({ kitchen: queueUrl('k') }) }),
      ),
    ).toThrow('webhook-delivery environment: DLQ_URLS: no dead-letter queue for subscriber "acme-hooks"');
  });

  it('reads the config compiled into the bundle when NOTIFIER_CONFIG is not set, as the CDK stack builds it', () => {
    // esbuild replaces the identifier with the JSON; unbundled, a global of that name stands in for it.
    Object.assign(globalThis, { [BUNDLED_CONFIG_GLOBAL]: CONFIG });
    try {
      const parsed = parseDeliveryEnvironment(
        'webhook-delivery',
        'webhook',
        env({ NOTIFIER_CONFIG: undefined }),
      );
      expect(parsed.subscriberOfQueue.get(queueArn('acme-hooks'))?.id).toBe('acme-hooks');
    } finally {
      delete (globalThis as Record<string, unknown>)[BUNDLED_CONFIG_GLOBAL];
    }
  });

  it('names the JSON path of a config problem', () => {
    expect(() =>
      parseDeliveryEnvironment(
        'slack-delivery',
        'slack',
        env({ NOTIFIER_CONFIG: CONFIG.replace('Europe/Lisbon', 'Europe/Lisbn') }),
      ),
    ).toThrow(/NOTIFIER_CONFIG: 1 problem\n {2}\$\.organizations\[0\]\.timeZone/);
  });

  it.each([
    ['webhook-delivery', '../../../functions/webhook-delivery/handler.js'],
    ['slack-delivery', '../../../functions/slack-delivery/handler.js'],
  ])('makes the %s handler module fail to load without its environment', async (name, path) => {
    for (const variable of [
      'STATE_TABLE_NAME',
      'NOTIFIER_CONFIG',
      'SECRETS_PREFIX',
      'QUEUE_SUBSCRIBERS',
      'DLQ_URLS',
    ]) {
      vi.stubEnv(variable, undefined);
    }
    await expect(import(path)).rejects.toThrow(
      `${name} environment: STATE_TABLE_NAME is not set; NOTIFIER_CONFIG is not set; SECRETS_PREFIX is not set; QUEUE_SUBSCRIBERS is not set; DLQ_URLS is not set`,
    );
  });
});
