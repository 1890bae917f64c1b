// The digest function's environment is checked at import: a misconfigured function fails on its first cold
// start, naming what is wrong. Its TOPIC_ARN is held to the same check as the publisher's.
import { describe, expect, it } from 'vitest';
import { parseDigestEnvironment } from '../../../functions/digest/environment.js';

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
});

const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:meal-order-events';

describe('parseDigestEnvironment', () => {
  it('names every variable that is not set', () => {
    expect(() => parseDigestEnvironment({})).toThrow(
      'digest environment: STATE_TABLE_NAME is not set; TOPIC_ARN is not set; NOTIFIER_CONFIG is not set',
    );
  });

  it('refuses a TOPIC_ARN that is not an SNS topic ARN', () => {
    expect(() =>
      parseDigestEnvironment({
        STATE_TABLE_NAME: 't',
        TOPIC_ARN: 'arn:aws:sqs:us-east-1:123456789012:queue',
        NOTIFIER_CONFIG: CONFIG,
      }),
    ).toThrow(
      'digest environment: TOPIC_ARN: must be an SNS topic ARN, arn:aws:sns:<region>:<account>:<topic>',
    );
  });

  it('reads the table, the topic and the config', () => {
    const environment = parseDigestEnvironment({ STATE_TABLE_NAME: 't', TOPIC_ARN, NOTIFIER_CONFIG: CONFIG });
    expect(environment.tableName).toBe('t');
    expect(environment.topicArn).toBe(TOPIC_ARN);
    expect(environment.config.organizations[0]?.name).toBe('North School');
  });
});
