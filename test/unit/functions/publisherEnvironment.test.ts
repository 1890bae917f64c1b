// The publisher's environment is checked at import: a misconfigured function fails on its first cold
// start, naming what is wrong. Its config (from the bundle, or NOTIFIER_CONFIG) gives each organization's
// highlight words.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePublisherEnvironment } from '../../../functions/publisher/environment.js';

const CONFIG = JSON.stringify({
  api: { baseUrl: 'https://example.test/api/v1/admin' },
  organizations: [
    {
      id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      name: 'North School',
      token: { env: 'NORTH_TOKEN' },
      timeZone: 'Europe/Lisbon',
      highlightWords: ['glúten'],
    },
  ],
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('parsePublisherEnvironment', () => {
  it('names TOPIC_ARN and NOTIFIER_CONFIG when they are not set', () => {
    expect(() => parsePublisherEnvironment({})).toThrow(
      'publisher environment: TOPIC_ARN is not set; CATCH_UP_AFTER_SECONDS is not set; NOTIFIER_CONFIG is not set',
    );
  });

  it('refuses a TOPIC_ARN that is not an SNS topic ARN', () => {
    expect(() =>
      parsePublisherEnvironment({
        TOPIC_ARN: 'arn:aws:sqs:us-east-1:123456789012:queue',
        NOTIFIER_CONFIG: CONFIG,
      }),
    ).toThrow('publisher environment: TOPIC_ARN: must be an SNS topic ARN');
  });

  it("reads the topic ARN, the catch-up thresholds and the config, with each organization's highlight words", () => {
    const topicArn = 'arn:aws:sns:eu-west-1:123456789012:meal-order-events';
    const environment = parsePublisherEnvironment({
      TOPIC_ARN: topicArn,
      CATCH_UP_AFTER_SECONDS: '900,3600',
      NOTIFIER_CONFIG: CONFIG,
    });
    expect(environment.topicArn).toBe(topicArn);
    expect(environment.catchUpAfterSeconds).toEqual([900, 3600]);
    expect(environment.config.organizations[0]?.highlightWords).toEqual(['glúten']);
    expect(
      parsePublisherEnvironment({
        TOPIC_ARN: topicArn,
        CATCH_UP_AFTER_SECONDS: 'none',
        NOTIFIER_CONFIG: CONFIG,
      }).catchUpAfterSeconds,
    ).toEqual([]);
  });

  it('names CATCH_UP_AFTER_SECONDS when it is missing or not whole seconds', () => {
    const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:meal-order-events';
    expect(() => parsePublisherEnvironment({ TOPIC_ARN, NOTIFIER_CONFIG: CONFIG })).toThrow(
      'publisher environment: CATCH_UP_AFTER_SECONDS is not set',
    );
    expect(() =>
      parsePublisherEnvironment({ TOPIC_ARN, CATCH_UP_AFTER_SECONDS: '15m', NOTIFIER_CONFIG: CONFIG }),
    ).toThrow(
      'publisher environment: CATCH_UP_AFTER_SECONDS: must be whole seconds, comma-separated, or none',
    );
  });

  it('makes the handler module fail to load without its environment', async () => {
    vi.stubEnv('TOPIC_ARN', undefined);
    await expect(import('../../../functions/publisher/handler.js')).rejects.toThrow(
      'publisher environment: TOPIC_ARN is not set',
    );
  });
});
