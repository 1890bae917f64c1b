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

  it('reads the topic ARN', () => {
    const topicArn = 'arn:aws:sns:eu-west-1:123456789012:meal-order-events';
    expect(parsePublisherEnvironment({ TOPIC_ARN: topicArn })).toEqual({ topicArn });
  });

  it('makes the handler module fail to load without its environment', async () => {
    vi.stubEnv('TOPIC_ARN', undefined);
    await expect(import('../../../functions/publisher/handler.js')).rejects.toThrow(
      'publisher environment: TOPIC_ARN is not set',
    );
  });
});
