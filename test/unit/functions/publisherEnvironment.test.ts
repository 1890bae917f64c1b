// The publisher's environment is checked at import: a misconfigured function fails on its first cold
// start, naming what is wrong.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePublisherEnvironment } from '../../../functions/publisher/environment.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('parsePublisherEnvironment', () => {
  it('names TOPIC_ARN when it is not set', () => {
    expect(() => parsePublisherEnvironment({})).toThrow('publisher environment: TOPIC_ARN is not set');
  });

  it('refuses a TOPIC_ARN that is not an SNS topic ARN', () => {
    expect(() =>
      parsePublisherEnvironment({ TOPIC_ARN: 'arn:aws:sqs:us-east-1:123456789012:queue' }),
    ).toThrow('publisher environment: TOPIC_ARN: must be an SNS topic ARN');
  });

  it('reads the topic ARN and the catch-up thresholds', () => {
    const topicArn = 'arn:aws:sns:eu-west-1:123456789012:meal-order-events';
    expect(parsePublisherEnvironment({ TOPIC_ARN: topicArn, CATCH_UP_AFTER_SECONDS: '900,3600' })).toEqual({
      topicArn,
      catchUpAfterSeconds: [900, 3600],
    });
    expect(parsePublisherEnvironment({ TOPIC_ARN: topicArn, CATCH_UP_AFTER_SECONDS: 'none' })).toEqual({
      topicArn,
      catchUpAfterSeconds: [],
    });
  });

  it('names CATCH_UP_AFTER_SECONDS when it is missing or not whole seconds', () => {
    const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:meal-order-events';
    expect(() => parsePublisherEnvironment({ TOPIC_ARN })).toThrow(
      'publisher environment: CATCH_UP_AFTER_SECONDS is not set',
    );
    expect(() => parsePublisherEnvironment({ TOPIC_ARN, CATCH_UP_AFTER_SECONDS: '15m' })).toThrow(
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
