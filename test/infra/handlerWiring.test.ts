// The stack and the functions agree on each function's environment: what the template sets (with
// CloudFormation's references resolved as AWS would), with the config the stack compiles into the bundle,
// is accepted by the function's own parser; a variable missing or wrong fails at the first cold start
// naming it; and the config each function receives is the part of the config file it reads. (That the
// bundles really carry the config is bundling.test.ts's business.)
import { describe, expect, it } from 'vitest';
import { parsePollerEnvironment } from '../../functions/poller/environment.js';
import { parsePublisherEnvironment } from '../../functions/publisher/environment.js';
import { parseDeliveryEnvironment } from '../../functions/shared/deliveryEnvironment.js';
import { NotifierConfig } from '../../infra/notifierConfig.js';
import { ConfigError } from '../../shared/config/errors.js';
import { parseConfig } from '../../shared/config/loadConfig.js';
import { exampleConfig, functionEnvironment, functionLogicalId, notifierApp } from './support/notifierApp.js';

const { stack, template } = notifierApp();
const BUNDLED_CONFIG = {
  poller: stack.config.pollerJson(),
  publisher: stack.config.publisherJson(),
  'webhook-delivery': stack.config.deliveryJson('webhook'),
  'slack-delivery': stack.config.deliveryJson('slack'),
};

/** The environment Lambda gives the function, NOTIFIER_CONFIG standing in for the config in its bundle. */
function environmentOf(service: keyof typeof BUNDLED_CONFIG): Record<string, string> {
  const environment = functionEnvironment(template, functionLogicalId(template, service));
  const config = BUNDLED_CONFIG[service];
  return config === undefined ? environment : { ...environment, NOTIFIER_CONFIG: config };
}

describe('the template', () => {
  it('keeps the config out of every environment, which 4 KB could not hold for many organizations', () => {
    for (const service of Object.keys(BUNDLED_CONFIG)) {
      expect(functionEnvironment(template, functionLogicalId(template, service))).not.toHaveProperty(
        'NOTIFIER_CONFIG',
      );
    }
  });
});

describe('the poller as deployed', () => {
  const environment = environmentOf('poller');

  it('accepts its environment: the table, the secrets prefix, the tick queue and the config without subscribers', () => {
    const parsed = parsePollerEnvironment(environment);
    expect(parsed.tableName).toMatch(/^MealOrderNotifier-StateTable/);
    expect(parsed.tickQueueUrl).toMatch(
      /^https:\/\/sqs\.eu-west-1\.amazonaws\.com\/123456789012\/MealOrderNotifier-Ticks/,
    );
    expect(parsed.secretsPrefix).toBe('MealOrderNotifier/');
    expect(parsed.config.organizations.map(({ id }) => id)).toEqual(['3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f']);
    expect(parsed.config.subscribers).toEqual([]);
  });

  it('fails fast naming a variable that is missing, and the JSON path of a config problem', () => {
    for (const variable of ['STATE_TABLE_NAME', 'NOTIFIER_CONFIG', 'SECRETS_PREFIX', 'TICK_QUEUE_URL']) {
      expect(() => parsePollerEnvironment({ ...environment, [variable]: undefined })).toThrow(
        `poller environment: ${variable} is not set`,
      );
    }
    const broken = environment.NOTIFIER_CONFIG?.replace('Europe/Lisbon', 'Europe/Lisbn');
    expect(() => parsePollerEnvironment({ ...environment, NOTIFIER_CONFIG: broken })).toThrow(
      /NOTIFIER_CONFIG: 1 problem\n {2}\$\.organizations\[0\]\.timeZone: "Europe\/Lisbn" is not an IANA time zone/,
    );
  });
});

describe('the publisher as deployed', () => {
  it('accepts its topic ARN, and names TOPIC_ARN when it is missing or not a topic', () => {
    const environment = environmentOf('publisher');
    expect(parsePublisherEnvironment(environment).topicArn).toMatch(/^arn:aws:sns:/);
    // The organizations, for their highlight words (defaults filled in), and no subscriber.
    const { config } = parsePublisherEnvironment(environment);
    expect(config.organizations.map(({ highlightWords }) => highlightWords.length > 0)).toEqual([true]);
    expect(config.subscribers).toEqual([]);
    // The Slack subscriber's catchUpAfter, left at its default of 15 minutes.
    expect(parsePublisherEnvironment(environment).catchUpAfterSeconds).toEqual([900]);
    expect(() => parsePublisherEnvironment({ ...environment, TOPIC_ARN: undefined })).toThrow(
      'publisher environment: TOPIC_ARN is not set',
    );
    expect(() =>
      parsePublisherEnvironment({ ...environment, TOPIC_ARN: 'MealOrderNotifier-Events' }),
    ).toThrow('publisher environment: TOPIC_ARN: must be an SNS topic ARN');
  });
});

describe.each([
  ['webhook-delivery', 'webhook', 'automation'],
  ['slack-delivery', 'slack', 'cafe-kitchen'],
] as const)('the %s function as deployed', (service, type, subscriberId) => {
  const environment = environmentOf(service);

  it("takes its channel's queue and dead-letter queue, and its subscribers from the bundled config", () => {
    const parsed = parseDeliveryEnvironment(service, type, environment);
    expect(parsed.subscribers.map(({ id }) => id)).toEqual([subscriberId]);
    expect(parsed.deliveryQueueUrl).toMatch(/^https:\/\/sqs\./);
    expect(parsed.deadLetterQueueUrl).toMatch(/^https:\/\/sqs\./);
    expect(parsed.config.subscribers.map(({ id }) => id)).toEqual([subscriberId]);
    // The shards are laid out over every Slack and webhook subscriber's secret, not this function's alone.
    expect(parsed.subscriberSecretShards).toBe(1);
  });

  it('fails fast naming each missing variable', () => {
    for (const variable of [
      'STATE_TABLE_NAME',
      'NOTIFIER_CONFIG',
      'SECRETS_PREFIX',
      'SUBSCRIBER_SECRET_SHARDS',
      'DELIVERY_QUEUE_URL',
      'DEAD_LETTER_QUEUE_URL',
    ]) {
      expect(() =>
        parseDeliveryEnvironment(service, type, { ...environment, [variable]: undefined }),
      ).toThrow(`${service} environment: ${variable} is not set`);
    }
  });
});

describe('NotifierConfig', () => {
  const config = new NotifierConfig(exampleConfig(), 'example.config.json');

  it('gives the poller the API settings and the organizations as written, minified', () => {
    const written = exampleConfig();
    expect(config.pollerJson()).toBe(
      JSON.stringify({ api: written.api, organizations: written.organizations }),
    );
  });

  it('gives the publisher the organizations as written, for their highlight words', () => {
    const written = exampleConfig();
    expect(config.publisherJson()).toBe(
      JSON.stringify({ api: written.api, organizations: written.organizations }),
    );
    expect(config.publisherConfig()).toEqual(parseConfig(JSON.parse(config.publisherJson())));
  });

  it('compiles into each bundle its cut as the config parser returns it, defaults filled in', () => {
    expect(config.pollerConfig()).toEqual(parseConfig(JSON.parse(config.pollerJson())));
    expect(config.pollerConfig().organizations[0]?.window).toEqual({ daysBack: 0, daysAhead: 7 });
    expect(config.deliveryConfig('webhook')).toEqual(parseConfig(JSON.parse(config.deliveryJson('webhook'))));
    expect(config.deliveryConfig('webhook').subscribers.map(({ id }) => id)).toEqual(['automation']);
  });

  it('gives a delivery function the subscribers of its type only, without smtp', () => {
    const slack = JSON.parse(config.deliveryJson('slack')) as {
      subscribers: { id: string }[];
      smtp?: unknown;
    };
    expect(slack.subscribers.map(({ id }) => id)).toEqual(['cafe-kitchen']);
    expect(slack).not.toHaveProperty('smtp');
  });

  it('refuses an invalid config with every problem by JSON path, before building anything', () => {
    const written = exampleConfig();
    const [north] = written.organizations;
    if (north) north.timeZone = 'Europe/Lisbn';
    expect(() => notifierApp(written, { props: { configSource: 'notifier.json' } })).toThrow(ConfigError);
    expect(() => notifierApp(written, { props: { configSource: 'notifier.json' } })).toThrow(
      'notifier.json: 1 problem\n  $.organizations[0].timeZone: "Europe/Lisbn" is not an IANA time zone (did you mean "Europe/Lisbon"?)',
    );
  });
});
