// The Slack and webhook delivery functions check their environment at import, against the config they
// deliver: a miswired stack fails on the first cold start, naming the variable and what is wrong.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDeliveryEnvironment } from '../../../functions/shared/deliveryEnvironment.js';
import { BUNDLED_CONFIG_GLOBAL } from '../../../shared/contracts/bundledConfig.js';
import { queueUrl } from '../../support/lambdaRecords.js';

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
    SUBSCRIBER_SECRET_SHARDS: '3',
    DELIVERY_QUEUE_URL: queueUrl('webhook-deliveries'),
    DEAD_LETTER_QUEUE_URL: queueUrl('webhook-dlq'),
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
      'webhook-delivery environment: STATE_TABLE_NAME is not set; NOTIFIER_CONFIG is not set; SECRETS_PREFIX is not set; SUBSCRIBER_SECRET_SHARDS is not set; DELIVERY_QUEUE_URL is not set; DEAD_LETTER_QUEUE_URL is not set',
    );
  });

  it('refuses a shard count that is not a whole number of shards, naming the variable', () => {
    for (const count of ['0', '1.5', 'two', '']) {
      expect(() =>
        parseDeliveryEnvironment('webhook-delivery', 'webhook', env({ SUBSCRIBER_SECRET_SHARDS: count })),
      ).toThrow('webhook-delivery environment: SUBSCRIBER_SECRET_SHARDS');
    }
  });

  it("takes the channel's two queues, and its subscribers from the config alone", () => {
    const parsed = parseDeliveryEnvironment('webhook-delivery', 'webhook', env());
    expect(parsed.tableName).toBe('state');
    expect(parsed.secretsPrefix).toBe('meal-order-notifier/');
    expect(parsed.subscriberSecretShards).toBe(3);
    expect(parsed.subscribers.map(({ id }) => id)).toEqual(['acme-hooks']);
    expect(parsed.deliveryQueueUrl).toBe(queueUrl('webhook-deliveries'));
    expect(parsed.deadLetterQueueUrl).toBe(queueUrl('webhook-dlq'));
  });

  it('refuses a queue URL that is not a URL', () => {
    expect(() =>
      parseDeliveryEnvironment('webhook-delivery', 'webhook', env({ DEAD_LETTER_QUEUE_URL: 'webhook-dlq' })),
    ).toThrow('webhook-delivery environment: DEAD_LETTER_QUEUE_URL: must be an SQS queue URL');
  });

  it('refuses a config without a subscriber of its type', () => {
    const config = JSON.parse(CONFIG) as { subscribers: { type: string }[] };
    config.subscribers = config.subscribers.filter(({ type }) => type === 'slack');
    expect(() =>
      parseDeliveryEnvironment(
        'webhook-delivery',
        'webhook',
        env({ NOTIFIER_CONFIG: JSON.stringify(config) }),
      ),
    ).toThrow(
      'webhook-delivery environment: NOTIFIER_CONFIG: no webhook subscriber; webhook-delivery has nothing to deliver',
    );
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
      expect(parsed.subscribers.map(({ id }) => id)).toEqual(['acme-hooks']);
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
      'SUBSCRIBER_SECRET_SHARDS',
      'DELIVERY_QUEUE_URL',
      'DEAD_LETTER_QUEUE_URL',
    ]) {
      vi.stubEnv(variable, undefined);
    }
    await expect(import(path)).rejects.toThrow(
      `${name} environment: STATE_TABLE_NAME is not set; NOTIFIER_CONFIG is not set; SECRETS_PREFIX is not set; SUBSCRIBER_SECRET_SHARDS is not set; DELIVERY_QUEUE_URL is not set; DEAD_LETTER_QUEUE_URL is not set`,
    );
  });
});
