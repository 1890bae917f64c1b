// A provider's channels: 200 Slack and webhook subscribers, each filtered to its establishment and each with
// a secret of its own (a Slack app bot token, an incoming-webhook URL or a signing secret), beside 50 e-mail
// recipients. The stack has as many resources, outputs, dashboard widgets and environment variables as with 2, and no widget
// title that lists them: a channel type
// is one queue, one dead-letter queue, one topic subscription and one alarm, the split into subscribers
// happens in the delivery function, and their secrets are keys of the one subscriber secrets shard (a
// shard per 200 names), no secret or output each. Only the e-mail subscriptions grow, one each (SNS's
// e-mail protocol has one endpoint per subscription).
import { describe, expect, it } from 'vitest';
import { exampleConfig, notifierApp } from './support/notifierApp.js';

function establishment(index: number): string {
  return `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
}

/**
 * `channels` Slack (app boards and incoming webhooks) and webhook subscribers in equal parts, each with its
 * own secret reference, and 50 e-mails.
 */
function provider(channels: number) {
  const config = exampleConfig();
  const [email] = config.subscribers;
  config.subscribers = [
    ...Array.from({ length: 50 }, (_, index) => ({
      ...email,
      id: `office-${index}`,
      to: [`office-${index}@north-school.example.org`],
    })),
    ...Array.from({ length: channels }, (_, index) =>
      index % 4 === 0
        ? {
            id: `kitchen-${index}`,
            type: 'slack',
            botToken: { env: `KITCHEN_${index}_SLACK_BOT_TOKEN` },
            channel: `C${String(index).padStart(8, '0')}`,
            filter: { establishments: [establishment(index)] },
          }
        : index % 4 === 2
          ? {
              id: `kitchen-${index}`,
              type: 'slack',
              webhookUrl: { env: `KITCHEN_${index}_SLACK_URL` },
              filter: { establishments: [establishment(index)] },
            }
          : {
              id: `hooks-${index}`,
              type: 'webhook',
              url: `https://hooks.example.org/establishments/${index}`,
              secret: { env: `HOOKS_${index}_WEBHOOK_SECRET` },
              filter: { establishments: [establishment(index)] },
            },
    ),
  ];
  return config;
}

interface TemplateJson {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Outputs?: Record<string, unknown>;
}

function countsOf(template: TemplateJson) {
  const byType = new Map<string, number>();
  for (const { Type } of Object.values(template.Resources)) byType.set(Type, (byType.get(Type) ?? 0) + 1);
  const environmentBytes = Object.values(template.Resources)
    .filter(({ Type }) => Type === 'AWS::Lambda::Function')
    .map(({ Properties }) => JSON.stringify((Properties?.Environment as object | undefined) ?? {}).length);
  return {
    byType: Object.fromEntries([...byType].sort(([a], [b]) => a.localeCompare(b))),
    outputs: Object.keys(template.Outputs ?? {}).length,
    environmentBytes,
  };
}

describe('a config of 200 Slack and webhook subscribers, each filtered to an establishment, and 50 e-mails', () => {
  it('synthesizes with the resources, outputs, dashboard widgets and function environments of 2 such subscribers', () => {
    const largeApp = notifierApp(provider(200));
    const smallApp = notifierApp(provider(2));
    const large = largeApp.template.toJSON() as TemplateJson;
    const small = smallApp.template.toJSON() as TemplateJson;

    expect(Object.keys(large.Resources).length).toBeLessThanOrEqual(500);
    // No dashboard row or widget per subscriber: their figures are one Logs Insights table.
    expect(largeApp.stack.dashboardWidgetCount).toBe(smallApp.stack.dashboardWidgetCount);
    // Nor a title that lists them: the event topic's widget names three e-mail subscribers and counts the rest.
    const dashboardBody = JSON.stringify(
      Object.values(large.Resources).find(({ Type }) => Type === 'AWS::CloudWatch::Dashboard')?.Properties,
    );
    expect(dashboardBody).toContain('Event topic (e-mail: office-0, office-1, office-2 and 47 more)');
    expect(countsOf(large).outputs).toBe(countsOf(small).outputs);
    expect(countsOf(large).byType).toEqual(countsOf(small).byType);
    // The environments hold nothing per subscriber (the config is in the bundle): not a byte more.
    expect(countsOf(large).environmentBytes).toEqual(countsOf(small).environmentBytes);

    const subscriptions = Object.values(large.Resources).filter(
      ({ Type }) => Type === 'AWS::SNS::Subscription',
    );
    const byProtocol = (protocol: string) =>
      subscriptions.filter(({ Properties }) => Properties?.Protocol === protocol).length;
    // One each for the e-mails; one per channel type for the 200.
    expect(byProtocol('email')).toBe(50);
    expect(byProtocol('sqs')).toBe(2);
    expect(countsOf(large).byType['AWS::SQS::Queue']).toBe(countsOf(small).byType['AWS::SQS::Queue']);

    // No secret or output per subscriber: the tokens' shard and the subscriber secrets' shard, one output each.
    const secretNames = Object.values(large.Resources)
      .filter(({ Type }) => Type === 'AWS::SecretsManager::Secret')
      .map(({ Properties }) => Properties?.Name);
    expect(secretNames).toEqual([
      'MealOrderNotifier/organization-tokens',
      'MealOrderNotifier/subscriber-secrets',
    ]);
    expect(Object.keys(large.Outputs ?? {}).filter((key) => key.startsWith('Secret'))).toEqual([
      'Secretorganizationtokens',
      'Secretsubscribersecrets',
    ]);
  }, 300_000);

  it('needs a second subscriber secrets shard, one secret and one output more, only past 200 secret names', () => {
    const past = notifierApp(provider(201)).template.toJSON() as TemplateJson;
    const at = notifierApp(provider(200)).template.toJSON() as TemplateJson;
    expect(Object.keys(past.Resources).length).toBe(Object.keys(at.Resources).length + 1);
    expect(countsOf(past).outputs).toBe(countsOf(at).outputs + 1);
    expect(past.Outputs).toHaveProperty('Secretsubscribersecrets2');
  }, 300_000);

  it('grows by one e-mail subscription per e-mail recipient, and by nothing else', () => {
    const withEmails = (count: number) => {
      const config = provider(2);
      config.subscribers = config.subscribers.filter(
        (subscriber, index) => subscriber.type !== 'email' || index < count,
      );
      return Object.keys((notifierApp(config).template.toJSON() as TemplateJson).Resources).length;
    };
    expect(withEmails(10) - withEmails(5)).toBe(5);
  }, 300_000);
});
