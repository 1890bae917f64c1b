// The poller's environment is checked at import: a misconfigured function fails on its first cold start,
// naming what is wrong.
import { afterEach, describe, expect, it } from 'vitest';
import { parsePollerEnvironment } from '../../../functions/poller/environment.js';
import { BUNDLED_CONFIG_GLOBAL } from '../../../shared/contracts/bundledConfig.js';

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

const TICK_QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/ticks';
/** Everything but the config. */
const BASE = {
  STATE_TABLE_NAME: 't',
  SECRETS_PREFIX: 'p/',
  TICK_QUEUE_URL,
  CATCH_UP_AFTER_SECONDS: '900,3600',
};

describe('parsePollerEnvironment', () => {
  it('names every variable that is not set', () => {
    expect(() => parsePollerEnvironment({})).toThrow(
      'poller environment: STATE_TABLE_NAME is not set; NOTIFIER_CONFIG is not set; SECRETS_PREFIX is not set; TICK_QUEUE_URL is not set; CATCH_UP_AFTER_SECONDS is not set',
    );
  });

  it('refuses a tick queue that is not a URL', () => {
    expect(() =>
      parsePollerEnvironment({ ...BASE, NOTIFIER_CONFIG: CONFIG, TICK_QUEUE_URL: 'ticks' }),
    ).toThrow('poller environment: TICK_QUEUE_URL: must be an SQS queue URL');
  });

  it('names the JSON path of a config problem', () => {
    const broken = CONFIG.replace('Europe/Lisbon', 'Europe/Lisbn');
    expect(() => parsePollerEnvironment({ ...BASE, NOTIFIER_CONFIG: broken })).toThrow(
      /NOTIFIER_CONFIG: 1 problem\n {2}\$\.organizations\[0\]\.timeZone: "Europe\/Lisbn" is not an IANA time zone/,
    );
  });

  it('reads the catch-up thresholds, and refuses what is not whole seconds', () => {
    expect(parsePollerEnvironment({ ...BASE, NOTIFIER_CONFIG: CONFIG }).catchUpAfterSeconds).toEqual([
      900, 3600,
    ]);
    expect(
      parsePollerEnvironment({ ...BASE, NOTIFIER_CONFIG: CONFIG, CATCH_UP_AFTER_SECONDS: 'none' })
        .catchUpAfterSeconds,
    ).toEqual([]);
    expect(() =>
      parsePollerEnvironment({ ...BASE, NOTIFIER_CONFIG: CONFIG, CATCH_UP_AFTER_SECONDS: '15m' }),
    ).toThrow('poller environment: CATCH_UP_AFTER_SECONDS: must be whole seconds, comma-separated, or none');
  });

  it('reads the table, the config, the secrets prefix and the tick queue', () => {
    const environment = parsePollerEnvironment({ ...BASE, NOTIFIER_CONFIG: CONFIG });
    expect(environment.tableName).toBe('t');
    expect(environment.secretsPrefix).toBe('p/');
    expect(environment.tickQueueUrl).toBe(TICK_QUEUE_URL);
    expect(environment.config.organizations[0]?.pollIntervalSeconds).toBe(10);
  });

  describe('with the config compiled into the bundle, as the CDK stack builds it', () => {
    // esbuild replaces the identifier with the JSON; unbundled, a global of that name stands in for it.
    const bundle = (json: string) => Object.assign(globalThis, { [BUNDLED_CONFIG_GLOBAL]: json });
    afterEach(() => {
      delete (globalThis as Record<string, unknown>)[BUNDLED_CONFIG_GLOBAL];
    });

    it('reads the compiled config when NOTIFIER_CONFIG is not set', () => {
      bundle(CONFIG);
      const environment = parsePollerEnvironment(BASE);
      expect(environment.config.organizations[0]?.name).toBe('North School');
    });

    it('lets NOTIFIER_CONFIG take precedence, and names it when the compiled config is wrong', () => {
      bundle(CONFIG.replace('North School', 'Compiled School'));
      const environment = parsePollerEnvironment({ ...BASE, NOTIFIER_CONFIG: CONFIG });
      expect(environment.config.organizations[0]?.name).toBe('North School');
      bundle(CONFIG.replace('Europe/Lisbon', 'Europe/Lisbn'));
      expect(() => parsePollerEnvironment(BASE)).toThrow(
        /NOTIFIER_CONFIG: 1 problem\n {2}\$\.organizations\[0\]\.timeZone/,
      );
    });
  });
});
