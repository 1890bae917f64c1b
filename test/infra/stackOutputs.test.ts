// The stack's outputs are the operator commands' map of the stack (`meal-notifier status --stack`): what
// the stack writes must be what the commands look for, for every subscriber, however its id is spelled.
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/loadConfig.js';
import { STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import { stackResourcesFromOutputs } from '../../shared/operations/stackResources.js';
import { exampleConfig, type NotifierApp, notifierApp } from './support/notifierApp.js';

type Outputs = Record<string, { Value: unknown; Description: string }>;

/** Each output as the operator commands read it: its key, and its value as the template holds it. */
function outputsOf(app: NotifierApp): Record<string, string> {
  const outputs = app.template.toJSON().Outputs as Outputs;
  return Object.fromEntries(Object.entries(outputs).map(([key, { Value }]) => [key, JSON.stringify(Value)]));
}

/** The template's value for the URL of the subscriber's queue (`Queue` or `DeadLetterQueue`). */
function urlOf(app: NotifierApp, channel: 'Slack' | 'Webhook', queue: 'Queue' | 'DeadLetterQueue'): string {
  const construct = app.stack.node.findChild('Deliveries').node.findChild(channel).node.findChild(queue);
  return JSON.stringify(app.stack.resolve((construct as Queue).queueUrl));
}

describe('stack outputs', () => {
  it('name the table, topic and failure queue the operator commands read', () => {
    const outputs = outputsOf(notifierApp(exampleConfig()));
    for (const key of Object.values(STACK_OUTPUT_KEYS)) expect(outputs).toHaveProperty(key);
    expect(outputs[STACK_OUTPUT_KEYS.polling]).toBe(JSON.stringify('on'));
  });

  it("let the commands find every Slack and webhook subscriber's queues: its channel's two, whatever their number", () => {
    const written = exampleConfig();
    const [, slack, webhook] = written.subscribers;
    written.subscribers.push({ ...webhook, id: 'auto-mation' }, { ...slack, id: 'cafe_kitchen' });
    const config = parseConfig(written);
    const subscribers = config.subscribers.flatMap((subscriber) =>
      subscriber.type === 'email' ? [] : [{ id: subscriber.id, type: subscriber.type }],
    );
    const app = notifierApp(written);
    const outputs = outputsOf(app);

    const { queues } = stackResourcesFromOutputs('MealOrderNotifier', outputs, subscribers);

    expect([...queues.keys()]).toEqual(subscribers.map(({ id }) => id));
    for (const { id, type } of subscribers) {
      const channel = type === 'slack' ? 'Slack' : 'Webhook';
      expect(queues.get(id), id).toEqual({
        queueUrl: urlOf(app, channel, 'Queue'),
        deadLetterQueueUrl: urlOf(app, channel, 'DeadLetterQueue'),
      });
    }
    // Two outputs per channel, none per subscriber.
    expect(
      Object.keys(outputs)
        .filter(
          (key) =>
            /QueueUrl$/.test(key) &&
            key !== STACK_OUTPUT_KEYS.publisherFailureQueue &&
            key !== STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue,
        )
        .sort(),
    ).toEqual([
      'SlackDeadLetterQueueUrl',
      'SlackDeliveryQueueUrl',
      'WebhookDeadLetterQueueUrl',
      'WebhookDeliveryQueueUrl',
    ]);
  });

  it('say when the stack does not poll, so that status --stack does not count its organizations as failing', () => {
    const outputs = outputsOf(notifierApp(exampleConfig(), { props: { pollingEnabled: false } }));
    const read = (values: Record<string, string>) =>
      stackResourcesFromOutputs('MealOrderNotifier', values, []).pollingEnabled;
    expect(outputs[STACK_OUTPUT_KEYS.polling]).toBe(JSON.stringify('off'));
    expect(read({ ...outputs, [STACK_OUTPUT_KEYS.polling]: 'off' })).toBe(false);
    expect(read({ ...outputs, [STACK_OUTPUT_KEYS.polling]: 'on' })).toBe(true);
    // A stack deployed before the output existed polled.
    expect(read({ [STACK_OUTPUT_KEYS.stateTable]: 'MealOrderNotifier-State' })).toBe(true);
  });
});
