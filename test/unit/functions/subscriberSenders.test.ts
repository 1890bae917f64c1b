// Senders are built once per subscriber and container, and rebuilt (the old one closed) when a secret
// changes, as after a rotation.
import { describe, expect, it } from 'vitest';
import {
  type ClosableSender,
  type DeliveryChannel,
  SubscriberSenders,
} from '../../../functions/shared/subscriberSenders.js';
import type { SlackSubscriber } from '../../../shared/config/configSchema.js';
import type { SecretResolver } from '../../../shared/config/secretResolver.js';

interface FakeSender extends ClosableSender {
  url: string;
  closed: boolean;
}

const SUBSCRIBER: SlackSubscriber = {
  id: 'kitchen',
  type: 'slack',
  webhookUrl: { env: 'KITCHEN_URL' },
  includeContactDetails: false,
  enabled: true,
};

function harness() {
  const secrets = { KITCHEN_URL: 'https://hooks.example.test/one' } as Record<string, string>;
  const resolver: SecretResolver = { resolve: async (ref) => secrets[ref.env] ?? '' };
  const built: FakeSender[] = [];
  const channel: DeliveryChannel<SlackSubscriber> = {
    type: 'slack',
    resolveSecrets: async (subscriber, resolve) => [await resolve.resolve(subscriber.webhookUrl)],
    build: (_subscriber, [url = '']) => {
      const sender: FakeSender = {
        url,
        closed: false,
        send: async () => ({ kind: 'delivered' }),
        close: async () => {
          sender.closed = true;
        },
      };
      built.push(sender);
      return sender;
    },
  };
  return { secrets, built, senders: new SubscriberSenders(channel, resolver) };
}

describe('SubscriberSenders', () => {
  it('reuses one sender while the secrets stay the same', async () => {
    const { built, senders } = harness();
    const first = await senders.senderFor(SUBSCRIBER);
    expect(await senders.senderFor(SUBSCRIBER)).toBe(first);
    expect(built).toHaveLength(1);
  });

  it('builds a new sender after a secret changes, and closes the old one', async () => {
    const { secrets, built, senders } = harness();
    await senders.senderFor(SUBSCRIBER);
    secrets.KITCHEN_URL = 'https://hooks.example.test/two';

    const rotated = (await senders.senderFor(SUBSCRIBER)) as FakeSender;

    expect(rotated.url).toBe('https://hooks.example.test/two');
    expect(built.map(({ url, closed }) => ({ url, closed }))).toEqual([
      { url: 'https://hooks.example.test/one', closed: true },
      { url: 'https://hooks.example.test/two', closed: false },
    ]);
  });
});
